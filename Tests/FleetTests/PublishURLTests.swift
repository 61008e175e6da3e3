import Testing
@testable import Fleet

@Suite struct PublishURLTests {
    @Test func parsesEveryPart() throws {
        let url = try PublishURL.parse("mqtts://bench%2D1:p%40ss%3Aw@broker.example:8884/nfctap/site-a/bench-1/taps")
        #expect(url == PublishURL(secure: true, host: "broker.example", port: 8884, username: "bench-1",
                                  password: "p@ss:w", topic: "nfctap/site-a/bench-1/taps"))
        #expect(try PublishURL.parse("MQTT://u@b/t").username == "u" && PublishURL.parse("ssl://b/t").port == 8883)
    }

    @Test func defaultPortsAndIPv6() throws {
        #expect(try PublishURL.parse("mqtt://10.0.0.5/t").port == 1883)
        #expect(try PublishURL.parse("mqtts://10.0.0.5/t").port == 8883)
        let v6 = try PublishURL.parse("mqtt://[::1]:1884/a/b")
        #expect(v6.host == "::1" && v6.port == 1884 && v6.topic == "a/b")
        #expect(v6.redacted == "mqtt://[::1]:1884/a/b")
    }

    @Test(arguments: [
        ("http://broker/t", PublishURLError.unknownScheme("http")),
        ("broker/t", PublishURLError.unknownScheme("broker")),
        ("mqtt:///t", PublishURLError.missingHost),
        ("mqtt://user:pw@/t", PublishURLError.missingHost),
        ("mqtt://:1883/t", PublishURLError.missingHost),
        ("mqtt://[]/t", PublishURLError.missingHost),
        ("mqtt://broker:0/t", PublishURLError.badPort("0")),
        ("mqtt://broker:65536/t", PublishURLError.badPort("65536")),
        ("mqtt://broker:12a/t", PublishURLError.badPort("…")),
        ("mqtt://broker:/t", PublishURLError.badPort("")),
        ("mqtt://broker:-1/t", PublishURLError.badPort("…")),
        ("mqtt://broker", PublishURLError.missingTopic),
        ("mqtt://broker/", PublishURLError.missingTopic),
        ("mqtt://bro ker/t", PublishURLError.badCharacters("host")),
        ("mqtt://broker/a%zz", PublishURLError.badCharacters("topic")),
        ("mqtt://broker/a%00b", PublishURLError.badCharacters("topic")),
        ("mqtt://broker/t?retain=1", PublishURLError.badTopic("t", reason: "query strings are not supported")),
        ("mqtt://u:p@ss@broker/t", PublishURLError.unencodedUserinfo),
        ("mqtt://u:p:ss@broker/t", PublishURLError.unencodedUserinfo),
        ("mqtt://u:pa/ss@broker/t", PublishURLError.ambiguous),
    ])
    func refuses(text: String, expected: PublishURLError) {
        #expect(throws: expected) { try PublishURL.parse(text) }
    }

    @Test func refusesWildcardTopics() {
        for text in ["mqtt://b/nfctap/+/taps", "mqtt://b/nfctap/%23"] {
            #expect(throws: PublishURLError.self) { try PublishURL.parse(text) }
        }
    }

    @Test func errorsNeverShowThePassword() {
        for text in ["mqtt://u:hunter2@:99999/t", "mqtt://u:hunter2@broker:99999/t", "mqtt://u:hunter2@broker", "ftp://u:hunter2@b/t"] {
            do {
                _ = try PublishURL.parse(text)
                Issue.record("accepted \(text)")
            } catch {
                #expect(!"\(error)".contains("hunter2"), "\(error)")
            }
        }
    }

    @Test func redactedHidesThePasswordOnly() throws {
        let url = try PublishURL.parse("mqtt://alice:s3cr%3At@broker:1883/x/taps")
        #expect(url.password == "s3cr:t")
        #expect(url.redacted == "mqtt://alice:***@broker:1883/x/taps")
        #expect("\(url)" == url.redacted)
    }

    @Test func topicOptionalWhenSiteGiven() throws {
        let settings = try PublishSettings(url: "mqtt://broker", site: "north", station: "kiosk-3", environment: [:])
        #expect(settings.topic == "nfctap/north/kiosk-3/taps")
        #expect(throws: PublishURLError.self) { try PublishSettings(url: "mqtt://broker", site: "a/b", station: "s", environment: [:]) }
        #expect(throws: PublishURLError.self) { try PublishSettings(url: "mqtt://broker/t", caFile: "/ca.pem", environment: [:]) }
    }

    @Test func passwordFromTheEnvironment() throws {
        let settings = try PublishSettings(url: "mqtt://bob@broker/t", environment: [PublishSettings.passwordVariable: "pw1"])
        #expect(settings.url.username == "bob" && settings.url.password == "pw1")
        let explicit = try PublishSettings(url: "mqtt://bob:pw0@broker/t", environment: [PublishSettings.passwordVariable: "pw1"])
        #expect(explicit.url.password == "pw0")
    }

    @Test func statusTopicIsTheSiblingOfTaps() {
        #expect(Topic.status(forRecords: "nfctap/s/st/taps") == "nfctap/s/st/status")
        #expect(Topic.status(forRecords: "warehouse/in") == "warehouse/in/status")
        #expect(Topic.taps(site: "s", station: "st") == "nfctap/s/st/taps")
    }
}

@Suite struct RedactorTests {
    @Test func removesRawAndEncodedPassword() {
        let redact = Redactor(secrets: ["p@ss w", nil, ""])
        #expect(redact("auth p@ss w failed for mqtt://u:p%40ss%20w@h") == "auth *** failed for mqtt://u:***@h")
        #expect(redact("nothing here") == "nothing here")
    }

    @Test func longerSecretFirst() {
        let redact = Redactor(secrets: ["ab", "abcd"])
        #expect(redact("xabcdx abx") == "x***x ***x")
    }
}
