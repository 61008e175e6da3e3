import Foundation
import Testing

/// The package as Debian's tools judge it: `lintian --pedantic` and two builds byte for byte.
@Suite(.serialized) struct DebPackageLintianTests {
    static let haveLintian = SystemEnvironment.tool("/usr/bin/lintian")

    /// The release binary scripts/package-deb.sh builds (scripts/lib/release-build.sh), when one
    /// has been built; NFCTAP_RELEASE_BINARY names another.
    static var releaseBinary: String? {
        let path = SystemEnvironment.environment["NFCTAP_RELEASE_BINARY"]
            ?? SystemEnvironment.packageRoot.appendingPathComponent(".build-release/release/nfctap").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// What lintian says of the test build's package that it would not say of the release build's:
    /// the debug binary finds the Swift runtime through its RUNPATH and is not linked with the
    /// release flags. Everything else (control, scripts, documents, files) must be clean.
    static let debugBinaryTags: Set<String> = [
        "custom-library-search-path", "hardening-no-bindnow", "hardening-no-relro", "hardening-no-pie",
        "binary-or-shlib-defines-rpath", "hardening-no-fortify-functions", "undeclared-elf-prerequisites",
    ]

    /// Tags of errors and warnings: ("E", tag, line) for each.
    static func lintian(_ deb: String) throws -> [(severity: String, tag: String, line: String)] {
        let r = try runProgram("/usr/bin/lintian", ["--pedantic", deb])
        return (r.stdout + r.stderr).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count >= 3, let colon = parts[0].firstIndex(of: ":") else { return nil }
            let severity = String(parts[0][..<colon])
            guard severity == "E" || severity == "W" else { return nil }
            return (severity, String(parts[2]), String(line))
        }
    }

    @Test(.enabled(if: DebPackageTests.haveDpkgDeb && haveLintian))
    func lintianFindsNothingButTheDebugBinary() throws {
        let (deb, dir) = try DebPackageTests.sharedPackage()
        defer { try? FileManager.default.removeItem(at: dir) }
        let findings = try Self.lintian(deb)
        let packaging = findings.filter { !Self.debugBinaryTags.contains($0.tag) }
        #expect(packaging.isEmpty, "\(packaging.map(\.line).joined(separator: "\n"))")
    }

    @Test(.enabled(if: DebPackageTests.haveDpkgDeb && haveLintian && releaseBinary != nil,
                   "needs the release build: scripts/package-deb.sh makes .build-release/release/nfctap"))
    func lintianIsCleanOnTheReleasePackage() throws {
        let (deb, dir) = try DebPackageTests.buildPackage(binary: Self.releaseBinary!, extra: ["--lintian"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let findings = try Self.lintian(deb)
        #expect(findings.isEmpty, "\(findings.map(\.line).joined(separator: "\n"))")
    }

    /// Two builds of the same binary, seconds apart and into different directories, are the same
    /// bytes: times come from SOURCE_DATE_EPOCH (the last commit), owners are root, order is sorted.
    /// (The first is the shared package of the test build, made by whichever suite asked first; the
    /// time stamps are read from the second, made here, next to the commit time read.)
    @Test(.enabled(if: DebPackageTests.haveDpkgDeb))
    func twoBuildsAreByteIdentical() throws {
        let first = try DebPackageTests.sharedPackage()
        defer { try? FileManager.default.removeItem(at: first.dir) }
        Thread.sleep(forTimeInterval: 1.1)  // a packaging time that leaked into the archive would now differ
        let second = try DebPackageTests.buildPackage()
        defer { try? FileManager.default.removeItem(at: second.dir) }
        let a = try Data(contentsOf: URL(fileURLWithPath: first.deb))
        let b = try Data(contentsOf: URL(fileURLWithPath: second.deb))
        #expect(a.count > 1000)
        #expect(a == b, "the two packages differ: diffoscope \(first.deb) \(second.deb)")
        // And every file's time in the archive is the last commit's.
        let commit = try runProgram("/usr/bin/git", ["log", "-1", "--format=%ct"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let stamp = try runProgram("/bin/sh", ["-c", "dpkg-deb --fsys-tarfile '\(second.deb)' | tar -tv --full-time --utc | awk '{print $4\" \"$5}' | sort -u"])
        let expected = try runProgram("/bin/date", ["-u", "-d", "@\(commit)", "+%Y-%m-%d %H:%M:%S"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(stamp.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == expected, "\(stamp.stdout)")
    }
}
