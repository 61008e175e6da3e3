// Shared by every harness in Fuzz/Targets (compiled into each fuzzer binary, not a module).

/// The fuzz input, read front to back. Reads past the end return nil or fewer bytes: never a trap.
struct FuzzInput {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        bytes = Array(UnsafeBufferPointer(start: data, count: size))
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset >= bytes.count }

    /// The next byte, or nil at the end.
    mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Up to `count` bytes (fewer at the end).
    mutating func take(_ count: Int) -> [UInt8] {
        let n = max(0, min(count, bytes.count - offset))
        defer { offset += n }
        return Array(bytes[offset..<(offset + n)])
    }

    /// Everything not read yet.
    mutating func rest() -> [UInt8] { take(bytes.count - offset) }

    /// A length-prefixed piece: one length byte, or `FF` then a 2-byte big-endian length; then
    /// that many bytes (fewer when the input ends first). Nil when the input is used up.
    mutating func lengthPrefixed() -> [UInt8]? {
        guard let first = byte() else { return nil }
        var length = Int(first)
        if first == 0xFF {
            let wide = take(2)
            length = wide.reduce(0) { $0 << 8 | Int($1) }
        }
        return take(length)
    }
}

/// Reports a broken invariant: a trap that libFuzzer records with the input (the message goes to stderr).
func finding(_ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError("FUZZ FINDING: \(message())", file: file, line: line)
}

/// `body`'s value, or nil when it threw the error type the code under test promises (`E`); any
/// other error is a finding.
func expecting<T, E: Error>(_ promised: E.Type, _ what: String, _ body: () throws -> T) -> T? {
    do {
        return try body()
    } catch is E {
        return nil
    } catch {
        finding("\(what) threw a non-\(E.self): \(error)")
    }
}
