import Foundation
import Testing

/// Every document the code and README cite is in the repository: each cited docs file exists (and its
/// `§N` heading), and nothing cites a path outside it (the old `specs/…` and `shared/…` notes).
/// Runs in the unit ring's time (no daemons); lives here because it reads the source tree.
@Suite struct DocsReferenceTests {
    static let root = SystemEnvironment.packageRoot
    /// Where citations live; CONTRIBUTING.md is read only for docs/ paths (it shows the sed that
    /// rewrites the old paths, so it spells them).
    static let scanned = ["Sources", "Tests", "Package.swift", "README.md", "Fuzz", "Benchmarks", "Examples", "scripts", ".ci", "docs"]
    static let textSuffixes = [".swift", ".md", ".sh", ".py", ".h", ".c", ".modulemap", ".json", ".service", ".rules", ".conf", ""]

    static func files(under names: [String]) -> [URL] {
        var result: [URL] = []
        for name in names {
            let url = root.appendingPathComponent(name)
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) else { continue }
            if !isDir.boolValue { result.append(url); continue }
            let e = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey])
            while let f = e?.nextObject() as? URL {
                if f.path.contains("/corpus/") || f.path.contains("/findings/") || f.path.contains("/.build") { continue }
                guard (try? f.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                if textSuffixes.contains(where: { $0.isEmpty ? !f.lastPathComponent.contains(".") : f.lastPathComponent.hasSuffix($0) }) {
                    result.append(f)
                }
            }
        }
        return result
    }

    static func matches(_ pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range, in: text).map { String(text[$0]) }
        }
    }

    /// `docs/<name>.md` and an optional ` §N` after it.
    static let citation = #"docs/[A-Za-z0-9_-]+\.md( ?§ ?[0-9]+)?"#

    @Test func citedDocsExistWithTheirSections() throws {
        var checked = 0
        for file in Self.files(under: Self.scanned + ["CONTRIBUTING.md"]) {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            for cite in Self.matches(Self.citation, in: text) {
                checked += 1
                let path = String(cite.prefix(while: { $0 != " " && $0 != "§" }))
                let doc = Self.root.appendingPathComponent(path)
                guard let body = try? String(contentsOf: doc, encoding: .utf8) else {
                    Issue.record("\(file.path): cites \(path), which is not in the repository")
                    continue
                }
                if let section = cite.split(separator: "§").dropFirst().first?.trimmingCharacters(in: .whitespaces) {
                    #expect(body.contains("\n## \(section). "), "\(file.path): \(cite) has no section \(section)")
                }
            }
        }
        #expect(checked > 20, "the citations were found at all (\(checked))")
    }

    @Test func nothingCitesPathsOutsideTheRepository() throws {
        // Assembled so that this file does not match itself.
        let outside = ["spec" + #"s/[A-Za-z0-9_-]+\.md"#, "shar" + #"ed/(specs|ARCHITECTURE|STYLE)[A-Za-z0-9_./-]*"#, "ARCHI" + #"TECTURE\.md"#]
        for file in Self.files(under: Self.scanned) {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            for pattern in outside {
                let found = Self.matches(pattern, in: text)
                #expect(found.isEmpty, "\(file.path) cites \(found)")
            }
        }
    }

    @Test func theDocsAndProjectFilesExist() {
        for path in ["docs/architecture.md", "docs/tags-and-readers.md", "docs/corenfc.md", "docs/zebra.md",
                     "LICENSE", "CHANGELOG.md", "CONTRIBUTING.md"] {
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path), "\(path)")
        }
        let license = (try? String(contentsOf: Self.root.appendingPathComponent("LICENSE"), encoding: .utf8)) ?? ""
        #expect(license.contains("Apache License") && license.contains("Version 2.0, January 2004"))
        #expect(license.contains("END OF TERMS AND CONDITIONS"), "the full text, not a notice")
    }
}
