import Foundation
import Testing
@testable import DesktopIntegration

@Suite struct URLPrefixTests {
    @Test(arguments: [
        ("https://example.com/app/", "https://example.com/app/item/42", true),
        ("https://example.com/app/", "HTTPS://EXAMPLE.COM/app/item", true),      // scheme and host without case
        ("https://example.com/app/", "https://example.com/App/item", false),     // the path keeps its case
        ("https://example.com/app", "https://example.com/app", true),
        ("https://example.com/app", "https://example.com/app/x", true),
        ("https://example.com/app", "https://example.com/app?x=1", true),
        ("https://example.com/app", "https://example.com/apple", false),         // not on a boundary
        ("https://example.com", "https://example.com.evil.test/app/", false),   // a lookalike host
        ("https://example.com", "https://example.com@evil.test/", false),       // userinfo trick
        ("https://example.com/", "https://evil.test/https://example.com/", false),
        ("https://example.com/app/", "http://example.com/app/", false),          // another scheme
        ("myapp://open/", "myapp://open/thing", true),
        ("mailto:desk@", "mailto:desk@example.com", true),
        ("", "https://example.com/", false),
        ("https://example.com/app/", "not a url", false),
    ])
    func matches(_ prefix: String, _ url: String, _ expected: Bool) {
        #expect((URLPrefix.match(prefix, url) != nil) == expected)
    }

    @Test func theLongestPrefixWins() throws {
        let dir = try TemporaryDataDirectories()
        try dir.write("home", "general.desktop", prefixes: "https://example.com/;")
        try dir.write("home", "specific.desktop", prefixes: "https://example.com/app/tickets/;")
        try dir.write("system", "middle.desktop", prefixes: "https://example.com/app/;")
        let index = DesktopEntryIndex(dataDirectories: dir.all, isExecutable: { _ in true })
        #expect(index.claim(for: "https://example.com/app/tickets/1")?.application.id == "specific.desktop")
        #expect(index.claim(for: "https://example.com/app/other")?.application.id == "middle.desktop")
        #expect(index.claim(for: "https://example.com/")?.application.id == "general.desktop")
        #expect(index.claim(for: "https://other.example/") == nil)
    }
}

@Suite struct DesktopEntryIndexTests {
    @Test func userEntriesHideSystemOnesAndHiddenMasks() throws {
        let dir = try TemporaryDataDirectories()
        try dir.write("system", "shadowed.desktop", prefixes: "https://a.example/;", name: "System A")
        try dir.write("home", "shadowed.desktop", prefixes: "https://a.example/;", name: "User A")
        try dir.write("system", "removed.desktop", prefixes: "https://b.example/;")
        try dir.write("home", "removed.desktop", prefixes: "https://b.example/;", extra: "Hidden=true")
        let index = DesktopEntryIndex(dataDirectories: dir.all, isExecutable: { _ in true })
        #expect(index.claim(for: "https://a.example/x")?.application.name == "User A")
        #expect(index.claim(for: "https://b.example/x") == nil)
    }

    @Test func tryExecNoDisplayTypeAndSubdirectories() throws {
        let dir = try TemporaryDataDirectories()
        try dir.write("home", "missing.desktop", prefixes: "https://c.example/;", extra: "TryExec=/nonexistent/program")
        try dir.write("home", "quiet.desktop", prefixes: "https://d.example/;", extra: "NoDisplay=true")
        try dir.write("home", "link.desktop", prefixes: "https://e.example/;", type: "Link")
        try dir.write("home", "vendor/app.desktop", prefixes: "https://f.example/;")
        try dir.write("home", "broken.desktop", prefixes: "https://g.example/;", exec: "app $HOME")
        let index = DesktopEntryIndex(dataDirectories: dir.all)
        #expect(index.claim(for: "https://c.example/") == nil)                       // TryExec not executable
        #expect(index.claim(for: "https://d.example/")?.application.noDisplay == true) // NoDisplay still launches
        #expect(index.claim(for: "https://e.example/") == nil)                       // not an application
        #expect(index.claim(for: "https://f.example/")?.application.id == "vendor-app.desktop")
        #expect(index.claim(for: "https://g.example/") == nil)
        #expect(index.problems.contains { $0.path.hasSuffix("broken.desktop") && $0.reason.contains("Exec") })
    }

    @Test func dataDirectoriesFollowTheBaseDirectorySpec() {
        #expect(XDGDataDirectories.all(environment: ["HOME": "/h"]) == ["/h/.local/share", "/usr/local/share", "/usr/share"])
        #expect(XDGDataDirectories.all(environment: ["HOME": "/h", "XDG_DATA_HOME": "/d", "XDG_DATA_DIRS": "/x:relative:/y"])
                == ["/d", "/x", "/y"])
        #expect(XDGDataDirectories.all(environment: ["HOME": "/h", "XDG_DATA_HOME": "rel"]).first == "/h/.local/share")
    }
}

/// Two data directories ("home" first, then "system") in a temporary directory.
final class TemporaryDataDirectories {
    let root: String
    var all: [String] { [root + "/home", root + "/system"] }

    init() throws {
        root = NSTemporaryDirectory() + "nfctap-desktop-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    func write(_ where_: String, _ name: String, prefixes: String, name appName: String = "App", type: String = "Application",
               exec: String = "app %u", extra: String = "") throws {
        let path = "\(root)/\(where_)/applications/\(name)"
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let text = "[Desktop Entry]\nType=\(type)\nName=\(appName)\nExec=\(exec)\nX-NFC-URL-Prefixes=\(prefixes)\n\(extra)\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }
}
