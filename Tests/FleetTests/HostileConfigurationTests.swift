import Foundation
import Testing
@testable import Fleet

/// URLs and settings as an operator (or an attacker with the configuration) may write them:
/// secrets with `/`, `@`, `:`, broker-owned topics, huge names, garbage CA files.
@Suite struct HostileConfigurationTests {
    @Test("passwords with percent-encoded '/', '@', ':' (base64 secrets) are decoded as RFC 3986 says", arguments: [
        ("mqtt://bench:aB3%2Fx+9Q==@broker.example/t/taps", "bench", "aB3/x+9Q=="),
        ("mqtt://bench:a%2Fb%2Fc@broker.example:1884/t/taps", "bench", "a/b/c"),
        ("mqtt://bench:p%40ss%3Aw%2Frd@broker.example/t/taps", "bench", "p@ss:w/rd"),
        ("mqtt://bench:p%2Fq%40r%3As@broker.example/t/taps", "bench", "p/q@r:s"),
        ("mqtts://b%40x:%20sp%25@[::1]:8884/t/taps", "b@x", " sp%"),
    ])
    func hostileSecrets(text: String, user: String, password: String) throws {
        let url = try PublishURL.parse(text)
        #expect(url.username == user && url.password == password)
        #expect(url.topic == "t/taps")
        #expect(url.host == "broker.example" || url.host == "::1")
        #expect(!url.redacted.contains(password) && url.redacted.contains(":***@"))
        let redact = Redactor(url: url)
        #expect(redact("failed: \(text) \(password)") == "failed: " + redact(text) + " ***")
        #expect(!redact(text).contains(password))
    }

    @Test("raw '/', '@', ':' in a password are refused, saying how to encode them, never echoing the password", arguments: [
        "mqtt://bench:aB3/x+9Q==@broker.example/t/taps", "mqtt://bench:a/b/c@broker.example:1884/t/taps",
        "mqtt://bench:pS3c@etX@broker.example/t/taps", "mqtt://bench:pS3c:etX@broker.example/t/taps",
    ])
    func rawSecretsRefused(text: String) {
        do {
            _ = try PublishURL.parse(text)
            Issue.record("accepted \(text)")
        } catch {
            let message = "\(error)"
            #expect(message.contains("percent-encode") && message.contains("%2F") && message.contains("%40"), "\(message)")
            for piece in ["aB3", "x+9Q", "a/b", "S3c", "etX"] { #expect(!message.contains(piece), "\(message)") }
        }
    }

    @Test("a URL that reads two ways is refused, and no error shows any piece of the password")
    func ambiguousAndBrokenSecretsNeverEchoed() {
        #expect(throws: PublishURLError.ambiguous) { try PublishURL.parse("mqtt://broker:1883/a@b/taps") }
        #expect(throws: PublishURLError.ambiguous) { try PublishURL.parse("mqtt://bench:1234/abc@broker.example/t/taps") }
        for text in ["mqtt://u:S3cr/etX@/t", "mqtt://u:S3cr/etX@bad host/t", "mqtt://u:S3cr/etX@b:99999/t",
                     "mqtt://u:S3cr/etX", "mqtt://u:S3c%zz@b/t", "mqtt://u:S3cr/etX@b/$SYS/x",
                     "mqtt://u:S3cr/etX@b/t\u{1}x", "mqtt://" + String(repeating: "S3cr", count: 2000) + "@b/t"] {
            do {
                _ = try PublishURL.parse(text)
                Issue.record("accepted \(text)")
            } catch {
                #expect(!"\(error)".contains("S3c") && !"\(error)".contains("etX"), "\(error)")
            }
        }
    }

    @Test("$SYS and other '$' topics, control characters and wildcards are refused at parse time", arguments: [
        "mqtt://b/$SYS/broker/taps", "mqtt://b/%24SYS/x", "mqtt://b/$share/g/t", "mqtt://b/a%0Ab", "mqtt://b/a%C2%9Bb",
        "mqtt://b/a/+/c", "mqtt://b/a/%23",
    ])
    func brokerTopicsRefused(text: String) {
        #expect(throws: PublishURLError.self) { try PublishURL.parse(text) }
    }

    @Test("site and station: one level of at most 128 bytes; a 70,000-character station is refused")
    func stationNameBounds() throws {
        let huge = String(repeating: "s", count: 70_000)
        #expect(throws: PublishURLError.self) { try PublishSettings(url: "mqtt://b", site: "north", station: huge) }
        do {
            _ = try PublishSettings(url: "mqtt://b", site: "north", station: huge)
        } catch {
            #expect("\(error)".contains("at most 128 bytes") && "\(error)".count < 300, "\(error)")
        }
        let longest = String(repeating: "s", count: 128)
        #expect(try PublishSettings(url: "mqtt://b", site: "north", station: longest).topic == "nfctap/north/\(longest)/taps")
        #expect(throws: PublishURLError.self) { try PublishSettings(url: "mqtt://b", site: "$SYS", station: "x") }
        #expect(throws: PublishURLError.self) { try PublishSettings(url: "mqtt://b", site: "n", station: "a\u{9B}b") }
    }

    @Test("a CA file that is missing, empty, garbage, a directory or a FIFO is refused naming it; a real one passes")
    func caFileChecked() throws {
        let dir = TemporaryDirectory()
        let garbage = dir.write("garbage.pem", "-----BEGIN CERTIFICATE-----\nnot base64 at all!!\n-----END CERTIFICATE-----\n")
        let empty = dir.write("empty.pem", "")
        let fifo = dir.path + "/fifo.pem"
        mkfifo(fifo, 0o600)
        for path in [dir.path + "/missing.pem", garbage, empty, dir.path, fifo] {
            do {
                try CAFile.validate(path)
                Issue.record("accepted \(path)")
            } catch {
                #expect("\(error)".contains(path), "\(error)")
            }
        }
        // A certificate made by openssl for the purpose.
        let key = dir.path + "/k.pem", cert = dir.path + "/c.pem"
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:1024", "-nodes", "-days", "1", "-subj", "/CN=t", "-keyout", key, "-out", cert]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        try CAFile.validate(cert)
    }
}
