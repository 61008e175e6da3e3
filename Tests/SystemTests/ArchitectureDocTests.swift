import Foundation
import Testing

/// docs/architecture.md is the map of the code (issue 25 item 6): its module tables name exactly
/// the targets of Package.swift, and every quoted heading a comment cites (`docs/<doc>.md, "Heading"`)
/// is one. Reads the source tree only: no daemons.
@Suite struct ArchitectureDocTests {
    static let root = SystemEnvironment.packageRoot

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Target names declared in Package.swift, the ported iOS examples left out (Examples/README.md lists them).
    static func packageTargets() throws -> Set<String> {
        let manifest = try text("Package.swift")
        let pattern = #"\.(target|systemLibrary|executableTarget|testTarget)\(\s*name:\s*"([^"]+)""#
        let names = DocsReferenceTests.matches(pattern, in: manifest).compactMap { match -> String? in
            DocsReferenceTests.matches(#""[^"]+""#, in: match).first.map { String($0.dropFirst().dropLast()) }
        }
        return Set(names.filter { !$0.hasSuffix("Example") })
    }

    /// The names in the first cell of every row of the tables under "## Modules".
    static func documentedModules() throws -> Set<String> {
        let doc = try text("docs/architecture.md")
        guard let start = doc.range(of: "\n## Modules\n") else { return [] }
        let section = doc[start.upperBound...].prefix { _ in true }
        let body = section.range(of: "\n## ").map { section[..<$0.lowerBound] } ?? section
        var names = Set<String>()
        for line in body.split(separator: "\n") where line.hasPrefix("| `") {
            let cell = line.dropFirst(2).prefix { $0 != "|" }
            for name in DocsReferenceTests.matches("`[^`]+`", in: String(cell)) {
                names.insert(String(name.dropFirst().dropLast()))
            }
        }
        return names
    }

    @Test("the module tables of docs/architecture.md name exactly Package.swift's targets")
    func moduleTableMatchesPackage() throws {
        let targets = try Self.packageTargets()
        let documented = try Self.documentedModules()
        #expect(targets.count > 20, "the manifest was parsed (\(targets.sorted()))")
        #expect(targets.subtracting(documented).isEmpty, "not in docs/architecture.md: \(targets.subtracting(documented).sorted())")
        #expect(documented.subtracting(targets).isEmpty, "not in Package.swift: \(documented.subtracting(targets).sorted())")
    }

    @Test("the architecture map has its sections")
    func sections() throws {
        let doc = try Self.text("docs/architecture.md")
        for heading in ["## Modules", "## Threads and queues", "## Errors", "## Where to add"] {
            #expect(doc.contains("\n\(heading)"), "\(heading)")
        }
        #expect(!doc.contains("proposals"))
    }

    /// `docs/<name>.md, "Quoted"` (or without the comma).
    static let quotedCitation = #"docs/[A-Za-z0-9_-]+\.md,? "[^"\n]+""#

    @Test("a quoted heading cited after a docs path is a heading of that document (or a passage in it)")
    func quotedHeadingsExist() throws {
        var checked = 0
        for file in DocsReferenceTests.files(under: DocsReferenceTests.scanned) {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            for cite in DocsReferenceTests.matches(Self.quotedCitation, in: text) {
                let path = String(cite.prefix { $0 != "," && $0 != " " })
                guard let quoteStart = cite.firstIndex(of: "\"") else { continue }
                let quote = String(cite[cite.index(after: quoteStart)...].dropLast())
                guard let body = try? Self.text(path) else {
                    Issue.record("\(file.path): cites \(path), which is not in the repository")
                    continue
                }
                checked += 1
                let headings = body.split(separator: "\n").filter { $0.hasPrefix("#") }
                    .map { $0.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces) }
                let found = headings.contains { $0.hasPrefix(quote) } || body.contains(quote)
                #expect(found, "\(file.path): \(cite): no such heading in \(path)")
            }
        }
        #expect(checked >= 5, "quoted citations were found (\(checked))")
    }
}
