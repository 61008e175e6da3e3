import Foundation
import Glibc
import Testing
@testable import DesktopIntegration

/// docs/desktop-agent.md §2: one strict parser; what it refuses is what a browser would read with
/// another host than the notification shows.
@Suite struct TagURLTests {
    @Test func componentsAreSplitAndHostsLowercased() throws {
        let url = try TagURL("HTTPS://User:pw@Example.COM:8443/a/b?q=1#frag")
        #expect(url.scheme == "https" && url.userinfo == "User:pw" && url.host == "example.com" && url.port == 8443)
        #expect(url.path == "/a/b" && url.query == "q=1" && url.fragment == "frag")
        #expect(url.displayHost == "example.com:8443")
        #expect(try TagURL("https://example.com:443/").displayHost == "example.com")
        #expect(try TagURL("https://[2001:db8::1]:8080/").host == "[2001:db8::1]")
        #expect(try TagURL("tel:+49-30-123").host == nil)
        #expect(try TagURL("mailto:desk@example.com").path == "desk@example.com")
        #expect(try TagURL("https://example.com/caf\u{E9}?q=\u{65E5}").path == "/caf\u{E9}")  // IRIs in the path and query
        #expect(try TagURL("https://192.168.0.1/").host == "192.168.0.1")
    }

    @Test(arguments: [
        // WHATWG reads `\` as `/`: the browser's host would be bank.example.
        ("https://bank.example\\@evil.example/", TagURLError.forbiddenCharacter(0x5C)),
        ("https:evil.example/", .missingHost),                      // WHATWG: host evil.example
        ("https:///evil.example/", .missingHost),
        ("https://%65vil.example/", .badHost("%65vil.example")),   // WHATWG decodes it
        ("https://0x7f.1/", .badHost("0x7f.1")),                   // WHATWG: 127.0.0.1
        ("https://2130706433/", .badHost("2130706433")),
        ("https://127.1/", .badHost("127.1")),
        ("https://010.0.0.1/", .badHost("010.0.0.1")),
        ("https://b\u{E4}nk.example/", .badHost("b\u{E4}nk.example")),  // an IDN host: WHATWG maps it
        ("https://example.com/\u{202E}gpj.exe", .forbiddenCharacter(0x202E)),
        ("https://example.com/a\u{200B}b", .forbiddenCharacter(0x200B)),
        ("https://example.com/\u{2028}", .forbiddenCharacter(0x2028)),
        ("https://exa mple.com/", .forbiddenCharacter(0x20)),
        ("https://example.com/\u{A0}", .forbiddenCharacter(0xA0)),
        ("https://example.com/%zz", .badPercentEncoding),
        ("https://example.com:99999/", .badPort("99999")),
        ("https://exa<mple.com/", .forbiddenCharacter(0x3C)),
        ("https://", .missingHost),
        ("no scheme", .noScheme),
        ("", .empty),
    ])
    func refusesWhatABrowserReadsDifferently(_ text: String, _ expected: TagURLError) {
        #expect(throws: expected) { _ = try TagURL(text) }
    }

    @Test func boundedLength() {
        #expect(throws: TagURLError.tooLong(8193)) { try TagURL("https://x.example/" + String(repeating: "a", count: 8193 - 18)) }
        #expect(throws: Never.self) { try TagURL("https://x.example/" + String(repeating: "a", count: 8192 - 18)) }
    }

    @Test func pathsAreNormalisedForComparison() throws {
        #expect(try TagURL("https://example.com/app/../../admin").normalizedPath == "/admin")
        #expect(try TagURL("https://example.com/app/%2E%2E/%2e%2E/admin").normalizedPath == "/admin")
        #expect(try TagURL("https://example.com/app/./x/../y").normalizedPath == "/app/y")
        #expect(try TagURL("https://example.com").normalizedPath == "/")
        #expect(try TagURL("https://example.com/a%7eb%2fc").normalizedPath == "/a~b%2Fc")
        #expect(try TagURL("https://example.com/app/..%2F..%2Fadmin").hasEncodedSeparator)
        // RFC 3986 §5.4's examples of remove_dot_segments.
        #expect(TagURL.removeDotSegments("/a/b/c/./../../g") == "/a/g")
        #expect(TagURL.removeDotSegments("mid/content=5/../6") == "mid/6")
        #expect(TagURL.removeDotSegments("/../../g") == "/g")
    }
}

@Suite struct URLPrefixNormalisationTests {
    @Test(arguments: [
        ("https://example.com/app/", "https://example.com/app/../../admin", false),
        ("https://example.com/app/", "https://example.com/app/%2E%2E/admin", false),
        ("https://example.com/app/", "https://example.com/app/%2e%2e/%2e%2e/admin", false),
        ("https://example.com/app/", "https://example.com/app/..%2F..%2Fadmin", false),  // a decoding server climbs out
        ("https://example.com/app/", "https://example.com/app/..%5C..%5Cadmin", false),
        ("https://example.com/", "https://example.com/a%2Fb", true),                  // the whole site: no way out
        ("https://example.com/app/", "https://example.com/app/x/../y", true),
        ("https://example.com/app/", "https://example.com/other/../app/y", true),    // resolves into /app/
        ("https://example.com/app/", "https://example.com:443/app/y", true),         // the default port
        ("https://example.com/app/", "https://example.com:444/app/y", false),
        ("https://example.com/app/", "https://example.com./app/y", true),
        ("https://example.com/app/", "https://user@example.com/app/y", false),       // userinfo: claimed by nothing
        ("https://example.com/app/", "https://example.com\\@evil.example/app/", false),
    ])
    func claimsCompareNormalisedURLs(_ prefix: String, _ url: String, _ expected: Bool) {
        #expect((URLPrefix.match(prefix, url) != nil) == expected)
    }
}

/// docs/desktop-agent.md §3: the one sanitiser.
@Suite struct DisplayTextTests {
    @Test func separatorsAndControlsBecomeOneSpace() {
        #expect(DisplayText.line("a\u{2028}b\u{2029}c\u{85}d\ne\r\n\tf\u{1B}[31mg", limit: 100) == "a b c d e f [31mg")
        #expect(DisplayText.line("  padded \u{3000} text  ", limit: 100) == "padded text")
    }

    @Test(arguments: [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C,
                      0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0xFE0F, 0x115F, 0x3164, 0x180E, 0xE0041, 0xE000, 0xFFFF, 0xAD] as [UInt32])
    func invisibleScalarsAreDropped(_ value: UInt32) throws {
        let s = try #require(Unicode.Scalar(value))
        #expect(DisplayText.line("a\(Character(s))b", limit: 10) == "ab", "U+\(String(value, radix: 16))")
    }

    @Test func visibleTextIsKeptAndBounded() {
        #expect(DisplayText.line("Caf\u{E9} \u{65E5}\u{672C} \u{1F600} \u{5E9}\u{5DC}\u{5D5}\u{5DD}", limit: 100)
                == "Caf\u{E9} \u{65E5}\u{672C} \u{1F600} \u{5E9}\u{5DC}\u{5D5}\u{5DD}")
        let zalgo = "a" + String(repeating: "\u{301}", count: 200)
        #expect(DisplayText.line(zalgo, limit: 10).unicodeScalars.count == DisplayText.maximumScalarsPerCharacter)
        let long = DisplayText.line(String(repeating: "x", count: 500), limit: 120)
        #expect(long.count == 120 && long.hasSuffix("…"))
    }

    @Test func aBodyLineCannotBecomeTwo() {
        let body = NotificationText.body(lines: ["Hello\u{2028}Open in your web browser", "Tag 04 on R"], markup: true)
        #expect(body == "Hello Open in your web browser\nTag 04 on R")
        #expect(NotificationText.body(lines: ["<b>x</b>", "", "y"], markup: true) == "&lt;b&gt;x&lt;/b&gt;\ny")
    }
}

/// docs/desktop-agent.md §4: when the next sweep is due.
@Suite struct LaunchPayloadExpiryTests {
    @Test func theOldestFileSetsTheNextSweep() throws {
        let runtime = try LaunchFilesTests.makeRuntimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let store = try LaunchPayloadStore(environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(store.nextExpiry() == nil)
        let files = try store.write(ndef: [0xD0, 0x00, 0x00], json: "{}")
        let expiry = try #require(store.nextExpiry())
        #expect(abs(expiry.timeIntervalSinceNow - store.lifetime) < 60)
        // A foreign file and a symlink named like the store's are neither counted nor removed.
        try Data().write(to: URL(fileURLWithPath: store.directory + "/other"))
        symlink(files.ndef, store.directory + "/tap-link")
        store.sweep(now: Date().addingTimeInterval(store.lifetime - 1))
        #expect(FileManager.default.fileExists(atPath: files.ndef))
        store.sweep(now: expiry.addingTimeInterval(1))
        #expect(!FileManager.default.fileExists(atPath: files.ndef) && !FileManager.default.fileExists(atPath: files.json))
        #expect(FileManager.default.fileExists(atPath: store.directory + "/other"))
        #expect(store.nextExpiry() == nil)
    }
}
