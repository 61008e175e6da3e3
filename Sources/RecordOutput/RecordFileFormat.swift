import Foundation

/// What a record file holds, so an existing file can be recognised as this tool's output before
/// anything is written to it, and a record torn by a crash can be told from someone else's data.
public struct RecordFileFormat: Sendable {
    public enum Framing: Sendable, Equatable {
        /// One JSON object per LF-terminated line (JSON escapes every LF inside a record).
        case jsonLines
        /// RFC 4180 records ending in CRLF, quoted fields may hold LFs; `header` first.
        case csv(header: String)
    }

    /// `jsonl` or `csv`, for messages.
    public var name: String
    public var framing: Framing
    /// JSON Lines: whether one parsed line is a record of this tool (its keys).
    public var recognisesObject: @Sendable ([String: Any]) -> Bool
    /// JSON Lines: the keys a record of this tool can start with, so that a torn last line can
    /// be told from someone else's (`{"important": true` is not ours).
    public var firstKeys: Set<String>

    public init(name: String, framing: Framing, firstKeys: Set<String> = [],
                recognisesObject: @escaping @Sendable ([String: Any]) -> Bool = { _ in true }) {
        self.name = name
        self.framing = framing
        self.firstKeys = firstKeys
        self.recognisesObject = recognisesObject
    }

    /// JSON Lines whose every object has all of `keys` (one of the key sets, when several) and
    /// starts with one of `firstKeys`.
    public static func jsonLines(requiringAnyOf keySets: [Set<String>], firstKeys: Set<String>) -> RecordFileFormat {
        RecordFileFormat(name: "jsonl", framing: .jsonLines, firstKeys: firstKeys) { object in
            keySets.contains { $0.isSubset(of: object.keys) }
        }
    }

    /// CSV starting with exactly `header` (terminator included).
    public static func csv(header: String) -> RecordFileFormat {
        RecordFileFormat(name: "csv", framing: .csv(header: header))
    }

    /// The line written once at the top of an empty file (nil for JSON Lines).
    public var header: String? {
        if case let .csv(header) = framing { return header }
        return nil
    }
}

/// Reads an existing file's bytes, in order, and decides whether they are this tool's records.
/// Streams: a months-long kiosk log is never held in memory at once.
struct RecordFileScanner {
    let format: RecordFileFormat
    /// Bytes up to the end of the last complete record.
    private(set) var completeLength = 0
    /// Complete records, the CSV header not counted.
    private(set) var records = 0
    /// False once a complete record (or the CSV header) is not this tool's.
    private(set) var recognised = true

    private var offset = 0
    private var current: [UInt8] = []
    private var insideQuotes = false
    private var sawHeader = false

    init(format: RecordFileFormat) {
        self.format = format
    }

    /// Feeds the next bytes of the file.
    mutating func feed(_ bytes: ArraySlice<UInt8>) {
        for byte in bytes {
            guard recognised else { return }
            offset += 1
            current.append(byte)
            if case .csv = format.framing, byte == 0x22 { insideQuotes.toggle() }
            if byte == 0x0A, !insideQuotes { endRecord() }
        }
    }

    private mutating func endRecord() {
        switch format.framing {
        case .jsonLines:
            let line = Data(current.dropLast())
            guard let object = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any],
                  format.recognisesObject(object) else {
                recognised = false
                return
            }
            records += 1
        case let .csv(header):
            if !sawHeader {
                guard current == Array(header.utf8) else {
                    recognised = false
                    return
                }
                sawHeader = true
            } else {
                // A record of ours starts with its sequence number and ends with CRLF.
                guard current.count >= 3, (0x30...0x39).contains(current[0]), current[current.count - 2] == 0x0D else {
                    recognised = false
                    return
                }
                records += 1
            }
        }
        completeLength = offset
        current.removeAll(keepingCapacity: true)
    }

    /// After the last byte: whether the trailing partial record (if any) could be a torn write of
    /// ours rather than foreign data (a file with no complete record must show that it is ours).
    var tailIsPlausible: Bool {
        let tail = current
        if tail.isEmpty { return true }
        switch format.framing {
        case .jsonLines:
            // A prefix of `{"key"` for a key a record of ours starts with, or one that goes on.
            return format.firstKeys.contains { key in
                let start = Array("{\"\(key)\"".utf8)
                return tail.starts(with: start) || start.starts(with: tail)
            }
        case let .csv(header):
            if !sawHeader { return Array(header.utf8).starts(with: tail) }
            return (0x30...0x39).contains(tail[0])
        }
    }
}
