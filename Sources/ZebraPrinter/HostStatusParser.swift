/// Reassembles and parses a `~HS` reply that arrives in pieces (BLE indications split it,
/// docs/zebra.md §2–3).
///
/// The reply is three frames `STX fields ETX`, normally each followed by CR LF. Decisions:
/// - CR and LF are skipped before and between frames (any number, or none); any other byte
///   outside a frame is an error. Inside a frame only printable ASCII is allowed.
/// - Each line is checked when its ETX arrives, so a bad first line fails at once.
/// - A reply may not take more than ``maxReplyLength`` bytes from its first STX.
/// - After a complete reply, the rest of the chunk is kept and parsed first by the next
///   ``feed(_:)`` (call `feed([])` to drain it). After an error the parser starts over empty.
public struct HostStatusParser: Sendable {
    /// The most bytes one reply may take from its first STX (a real reply is 82).
    public static let maxReplyLength = 256

    private static let stx: UInt8 = 0x02
    private static let etx: UInt8 = 0x03

    /// Field texts of the lines completed so far.
    private var lines: [[String]] = []
    /// Whether an STX has opened a frame that no ETX has closed yet.
    private var inFrame = false
    /// The current frame's content (empty between frames).
    private var content: [UInt8] = []
    /// Bytes taken by the reply so far, counted from its first STX.
    private var length = 0
    /// Bytes after a completed reply, not yet parsed.
    private(set) var pendingBytes: [UInt8] = []

    public init() {}

    /// The line (1–3) the parser is in or waiting for.
    var currentLine: Int { lines.count + 1 }

    /// Whether nothing is buffered: no partial reply and no pending bytes other than CR/LF.
    public var isIdle: Bool {
        lines.isEmpty && !inFrame && length == 0 && pendingBytes.allSatisfy { $0 == 0x0D || $0 == 0x0A }
    }

    /// Adds bytes; returns the status once the third frame closes, nil while more is needed.
    /// - Throws: ``HostStatusError`` as soon as the bytes cannot be a `~HS` reply; the parser is
    ///   then reset.
    public mutating func feed(_ bytes: [UInt8]) throws -> PrinterStatus? {
        var input = pendingBytes
        input.append(contentsOf: bytes)
        pendingBytes = []
        do {
            for i in input.indices {
                if let status = try step(input[i]) {
                    pendingBytes = Array(input[(i + 1)...])
                    return status
                }
            }
            return nil
        } catch {
            self = HostStatusParser()
            throw error
        }
    }

    /// Advances by one byte.
    private mutating func step(_ b: UInt8) throws -> PrinterStatus? {
        let line = currentLine
        if length > 0 || b == Self.stx {
            length += 1
            if length > Self.maxReplyLength { throw HostStatusError.replyTooLong(limit: Self.maxReplyLength) }
        }
        guard inFrame else {
            switch b {
            case 0x0D, 0x0A: return nil
            case Self.stx: inFrame = true; return nil
            default: throw HostStatusError.missingSTX(line: line, found: b)
            }
        }
        switch b {
        case Self.etx:
            lines.append(try Self.fields(of: content, line: line))
            inFrame = false
            content.removeAll(keepingCapacity: true)
            guard lines.count == HostStatusField.lines.count else { return nil }
            let status = PrinterStatus(fields: lines)
            lines = []
            length = 0
            return status
        case Self.stx, 0x0D, 0x0A:
            throw HostStatusError.missingETX(line: line, found: b)
        case 0x20...0x7E:
            content.append(b)
            return nil
        default:
            throw HostStatusError.invalidByte(line: line, byte: b)
        }
    }

    /// Splits a frame's content at commas and checks each field against the ZPL guide's layout.
    static func fields(of content: [UInt8], line: Int) throws -> [String] {
        let layout = HostStatusField.lines[line - 1]
        let parts = content.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard parts.count == layout.count else {
            throw HostStatusError.wrongFieldCount(line: line, expected: layout.count, found: parts.count)
        }
        var out: [String] = []
        for (part, spec) in zip(parts, layout) {
            let text = String(decoding: part, as: UTF8.self)  // printable ASCII, checked per byte
            func fail(_ reason: HostStatusError.FieldProblem) -> HostStatusError {
                .invalidField(line: line, field: spec.field, value: text, reason: reason)
            }
            guard !part.isEmpty else { throw fail(.empty) }
            guard part.count <= spec.width else { throw fail(.tooLong(width: spec.width)) }
            let isDigit: (UInt8) -> Bool = { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            switch spec.kind {
            case .digits:
                guard part.allSatisfy(isDigit) else { throw fail(.notDigits) }
            case .flag:
                guard part.first == UInt8(ascii: "0") || part.first == UInt8(ascii: "1") else { throw fail(.notFlag) }
            case .printMode:
                let c = part[part.startIndex]
                let isLetter = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c)
                guard isDigit(c) || isLetter else { throw fail(.notPrintMode) }
            }
            out.append(text)
        }
        return out
    }
}
