import ArgumentParser
import Foundation
import NDEF
import NFCReaders

/// `nfctap readers`: the PC/SC readers attached now and the tag on each.
///
/// Exit codes: 0 with at least one reader; 3 when pcscd is not running (message with the fix on
/// stderr) or when no reader is attached (an empty list on stdout, a message on stderr).
struct Readers: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the NFC readers and the tag on each.",
        discussion: """
            With --json, stdout is one JSON array: [{"name", "backend", "feedback", "tag": null or \
            {"technology", "atr", "uid"}}] (bytes as upper-case hex). Exit 3 when pcscd is not \
            running or no reader is attached (then the list is empty).
            """)

    @Flag(help: "Print one JSON array on stdout.") var json = false

    /// One line of the output.
    struct Entry: Encodable {
        struct Tag: Encodable {
            var technology: String
            var atr: String
            var uid: String
        }
        var name: String
        var backend: String
        var feedback: Bool
        var tag: Tag?

        init(_ snapshot: ReaderSnapshot) {
            name = snapshot.reader.name
            backend = snapshot.reader.backend.rawValue
            feedback = snapshot.reader.supportsFeedback
            tag = snapshot.tag.map { Tag(technology: $0.technology.rawValue, atr: $0.atr.hexString, uid: $0.uid.hexString) }
        }

        // `tag` is written as null when absent, so every entry has the same keys.
        enum CodingKeys: String, CodingKey { case name, backend, feedback, tag }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(name, forKey: .name)
            try c.encode(backend, forKey: .backend)
            try c.encode(feedback, forKey: .feedback)
            try c.encode(tag, forKey: .tag)
        }
    }

    func run() throws {
        let snapshots: [ReaderSnapshot]
        do {
            snapshots = try PCSCBackend().snapshot()
        } catch let error as ReaderError {
            FileHandle.standardError.write(Data("nfctap: \(error)\n".utf8))
            throw NFCTapExit.noReader
        }
        let entries = snapshots.map(Entry.init)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(entries), as: UTF8.self))
        } else {
            for e in entries {
                let tag = e.tag.map { "\($0.technology) tag, UID \($0.uid.isEmpty ? "unknown" : $0.uid), ATR \($0.atr)" } ?? "no tag"
                print("\(e.name)\t\(e.backend)\t\(tag)")
            }
        }
        if entries.isEmpty {
            FileHandle.standardError.write(Data("nfctap: \(ReaderError.noReaders)\n".utf8))
            throw NFCTapExit.noReader
        }
    }
}
