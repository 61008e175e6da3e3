import Testing
@testable import DesktopIntegration

@Suite struct ExecLineTests {
    static let context = ExecContext(urls: ["https://example.com/app/a b"], files: ["/run/user/1/nfctap/launch/tap-1.ndef"],
                                     icon: "org.example.App", name: "Example App", location: "/data/applications/x.desktop")

    @Test(arguments: [
        ("app %u", ["app", "https://example.com/app/a b"]),
        ("app %U", ["app", "https://example.com/app/a b"]),
        ("app --url=%u", ["app", "--url=https://example.com/app/a b"]),
        ("app %f", ["app", "/run/user/1/nfctap/launch/tap-1.ndef"]),
        ("app %F", ["app", "/run/user/1/nfctap/launch/tap-1.ndef"]),
        ("app %i %u", ["app", "--icon", "org.example.App", "https://example.com/app/a b"]),
        ("app --name %c %k", ["app", "--name", "Example App", "/data/applications/x.desktop"]),
        ("app 100%% %u", ["app", "100%", "https://example.com/app/a b"]),
        ("app %d %D %n %N %v %m %u", ["app", "https://example.com/app/a b"]),
        ("\"/opt/My App/bin/app\" %u", ["/opt/My App/bin/app", "https://example.com/app/a b"]),
        ("app \"a \\\"quoted\\\" \\$HOME \\`x\\` \\\\ end\"", ["app", "a \"quoted\" $HOME `x` \\ end"]),
        ("app \"semi;colon & pipe | <>\" %u", ["app", "semi;colon & pipe | <>", "https://example.com/app/a b"]),
        ("app \"\" %u", ["app", "", "https://example.com/app/a b"]),
        ("app   two  spaces  ", ["app", "two", "spaces"]),
        ("app \"100%%\"", ["app", "100%"]),
    ])
    func expands(_ exec: String, _ argv: [String]) throws {
        #expect(try ExecLine(exec).arguments(for: Self.context) == argv)
    }

    @Test func singleCodesWithNothingToGiveAreDropped() throws {
        let empty = ExecContext(name: "N", location: "")
        #expect(try ExecLine("app %u %i").arguments(for: empty) == ["app"])
        #expect(try ExecLine("app %f").arguments(for: empty) == ["app"])
        #expect(try ExecLine("app --url=%u").arguments(for: empty) == ["app", "--url="])
        #expect(try ExecLine("app %U").arguments(for: ExecContext(urls: ["a:1", "b:2"])) == ["app", "a:1", "b:2"])
    }

    @Test func aURLFromATagStaysOneArgument() throws {
        // Shell syntax in the URL is data: one argv element, never interpreted.
        let hostile = "https://example.com/app/$(touch /tmp/pwned);`id`|cat /etc/passwd > x &"
        let argv = try ExecLine("app %u").arguments(for: ExecContext(urls: [hostile]))
        #expect(argv == ["app", hostile])
    }

    @Test(arguments: [
        "app \"unterminated",
        "app $HOME",
        "app a;b",
        "app a|b",
        "app ~/x",
        "app it's",
        "app a\\b",
        "app a\"b\"",
        "app \"a\"b",
        "app %x",
        "app %",
        "app --files=%F",
        "app x%U",
        "app --icon=%i",
        "app %u %f",
        "app %U %u",
        "app \"%u\"",
        "app \"\\n\"",
        "",
        "   ",
        "%u app",
    ])
    func rejects(_ exec: String) {
        #expect(throws: DesktopEntryError.self) { try ExecLine(exec) }
    }

    @Test func reportsWhatItAccepts() throws {
        #expect(try ExecLine("app %u").acceptsURLs)
        #expect(try !ExecLine("app %f").acceptsURLs)
        #expect(try ExecLine("app %F").acceptsFiles)
        #expect(try ExecLine("/usr/bin/app").program == "/usr/bin/app")
    }
}
