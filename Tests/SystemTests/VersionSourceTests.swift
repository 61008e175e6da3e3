import Foundation
import Testing

/// CHANGELOG.md is the one source of the version: scripts/lib/changelog.py reads it, the generated
/// NFCTapVersion.swift carries it into `nfctap --version`, and the Debian package takes it from both.
@Suite struct VersionSourceTests {
    static let root = SystemEnvironment.packageRoot
    static let tool = root.appendingPathComponent("scripts/lib/changelog.py").path

    static func version(of changelog: String) throws -> CLIResult {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-changelog-\(UUID().uuidString).md")
        try changelog.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try runProgram("/usr/bin/python3", [tool, "version"], environment: ["NFCTAP_CHANGELOG": file.path])
    }

    @Test func theGeneratedSwiftSourceIsCurrent() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-version-\(UUID().uuidString).swift")
        defer { try? FileManager.default.removeItem(at: out) }
        #expect(try runProgram("/usr/bin/python3", [Self.tool, "swift", out.path]).status == 0)
        let committed = try String(contentsOf: Self.root.appendingPathComponent("Sources/NFCTapKit/Support/NFCTapVersion.swift"), encoding: .utf8)
        #expect(try String(contentsOf: out, encoding: .utf8) == committed,
                "CHANGELOG.md's version changed: run python3 scripts/lib/changelog.py swift Sources/NFCTapKit/Support/NFCTapVersion.swift")
    }

    @Test func versionPrintsWhatTheChangelogSays() throws {
        let expected = try runProgram("/usr/bin/python3", [Self.tool, "version"]).stdout
        #expect(try runCLI(["--version"]).stdout == expected)
        #expect(expected.hasPrefix("0.") || expected.hasPrefix("1."), "\(expected)")
    }

    @Test func theTopReleasedHeadingIsTheVersion() throws {
        let released = try Self.version(of: "# Changelog\n\n## 1.2.0\n\n- x\n\n## 1.1.0\n\n- y\n")
        #expect(released.stdout == "1.2.0\n")
        let snapshot = try Self.version(of: "# Changelog\n\n## Unreleased\n\n- z\n\n## 1.2.0\n\n- x\n")
        #expect(snapshot.stdout == "1.2.0+unreleased\n", "sorts after 1.2.0 and before 1.2.1")
        let none = try Self.version(of: "# Changelog\n\n## Unreleased\n\n- z\n")
        #expect(none.status != 0)
        #expect(none.stderr.contains("no '## X.Y.Z' heading"))
    }
}
