import Foundation
import Testing

/// The agent's desktop files (issue 24's unit, issue 27 item 6): its desktop entry, valid for
/// desktop-file-utils and named by the `desktop-entry` hint of its notifications, and its user
/// unit, both shipped in the .deb where a desktop looks for them.
@Suite struct AgentDesktopFilesTests {
    static let haveValidator = SystemEnvironment.tool("/usr/bin/desktop-file-validate")

    @Test(.enabled(if: haveValidator || SystemEnvironment.environment["NFCTAP_REQUIRE_SYSTEM"] == "1"))
    func theAgentsDesktopEntryIsValidAndHidden() throws {
        let path = SystemEnvironment.packageRoot.appendingPathComponent("desktop/nfctap-agent.desktop").path
        let r = try runProgram("/usr/bin/desktop-file-validate", [path])
        #expect(r.status == 0 && r.stdout.isEmpty && r.stderr.isEmpty, "desktop-file-validate: \(r.stdout)\(r.stderr)")
        let text = try PackagingTests.read("desktop/nfctap-agent.desktop")
        #expect(text.contains("\nNoDisplay=true\n"))  // not in menus: it is started by its user unit
        #expect(text.contains("\nIcon=network-wireless\n"))  // the app_icon of its notifications
        // A broken copy is refused, so the check above means something.
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-agent-\(UUID().uuidString).desktop")
        defer { try? FileManager.default.removeItem(at: broken) }
        try text.replacingOccurrences(of: "Type=Application", with: "Type=Program").write(to: broken, atomically: true, encoding: .utf8)
        #expect(try runProgram("/usr/bin/desktop-file-validate", [broken.path]).status != 0)
    }

    @Test func theReadmeInstallsTheUnitWithoutAGuessedPath() throws {
        let readme = try PackagingTests.read("README.md")
        let section = try #require(readme.components(separatedBy: "## Desk: background reading").dropFirst().first?
            .components(separatedBy: "\n## ").first)
        #expect(!section.contains("/usr/local/bin"), "the agent section names /usr/local/bin")
        #expect(section.contains("systemctl --user enable --now nfctap-agent"))
        #expect(!(try PackagingTests.read("systemd/nfctap-agent.service")).contains("/usr/local"))
    }

    @Test(.enabled(if: DebPackageTests.haveDpkgDeb))
    func theDebShipsTheUserUnitAndTheDesktopEntry() throws {
        let (deb, dir) = try DebPackageTests.sharedPackage()
        defer { try? FileManager.default.removeItem(at: dir) }
        let contents = try runProgram("/usr/bin/dpkg-deb", ["--contents", deb]).stdout
        for path in ["./usr/lib/systemd/user/nfctap-agent.service", "./usr/share/applications/nfctap-agent.desktop"] {
            #expect(contents.contains(" \(path)\n"), "\(path) missing from the package")
        }
        let tree = dir.appendingPathComponent("tree")
        #expect(try runProgram("/usr/bin/dpkg-deb", ["-x", deb, tree.path]).status == 0)
        let unit = try String(contentsOf: tree.appendingPathComponent("usr/lib/systemd/user/nfctap-agent.service"), encoding: .utf8)
        #expect(unit.contains("\nExecStart=/usr/bin/nfctap agent\n"))
        // The desktop-entry hint names a file the package installs.
        #expect(FileManager.default.fileExists(atPath: tree.appendingPathComponent("usr/share/applications/nfctap-agent.desktop").path))
    }
}
