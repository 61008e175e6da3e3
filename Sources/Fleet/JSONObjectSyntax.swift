/// Whether a record line is one JSON object (RFC 8259), checked without building it: the
/// forwarder only needs to know whether it may put `"recordId"` inside the line's object
/// (`RecordID.payload`), and parsing every record into Foundation objects cost ≈ 47,000
/// instructions a record (docs/architecture.md "Start-up").
///
/// Strict: UTF-8 that decodes, no control characters in strings, escapes as RFC 8259 §7 lists
/// them with surrogate pairs complete, numbers as §6 writes them, `true`/`false`/`null`, nothing
/// after the object but whitespace. Nesting deeper than `maxDepth` is refused (a 1 MiB line of
/// `[` must not exhaust the stack).
enum JSONObjectSyntax {
    static let maxDepth = 512

    /// Whether `bytes` is exactly one JSON object, surrounding whitespace allowed.
    static func isObject(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard String(validating: bytes, as: UTF8.self) != nil else { return false }
        var scanner = Scanner(bytes: bytes)
        scanner.skipWhitespace()
        guard scanner.peek == UInt8(ascii: "{"), scanner.value(depth: 0) else { return false }
        scanner.skipWhitespace()
        return scanner.atEnd
    }

    private struct Scanner {
        let bytes: ArraySlice<UInt8>
        var index: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            index = bytes.startIndex
        }

        var atEnd: Bool { index >= bytes.endIndex }
        var peek: UInt8? { atEnd ? nil : bytes[index] }

        mutating func skipWhitespace() {
            while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        mutating func value(depth: Int) -> Bool {
            guard depth < JSONObjectSyntax.maxDepth, let byte = peek else { return false }
            switch byte {
            case UInt8(ascii: "{"): return object(depth: depth + 1)
            case UInt8(ascii: "["): return array(depth: depth + 1)
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }

        mutating func object(depth: Int) -> Bool {
            index += 1  // {
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return true }
            while true {
                skipWhitespace()
                guard peek == UInt8(ascii: "\""), string() else { return false }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipWhitespace()
                guard value(depth: depth) else { return false }
                skipWhitespace()
                if take(UInt8(ascii: "}")) { return true }
                guard take(UInt8(ascii: ",")) else { return false }
            }
        }

        mutating func array(depth: Int) -> Bool {
            index += 1  // [
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return true }
            while true {
                skipWhitespace()
                guard value(depth: depth) else { return false }
                skipWhitespace()
                if take(UInt8(ascii: "]")) { return true }
                guard take(UInt8(ascii: ",")) else { return false }
            }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.endIndex - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
        mutating func number() -> Bool {
            _ = take(UInt8(ascii: "-"))
            if take(UInt8(ascii: "0")) {
                // no leading zeros
            } else {
                guard let first = peek, first >= UInt8(ascii: "1"), first <= UInt8(ascii: "9") else { return false }
                skipDigits()
            }
            if take(UInt8(ascii: ".")) {
                guard isDigit(peek) else { return false }
                skipDigits()
            }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                guard isDigit(peek) else { return false }
                skipDigits()
            }
            return true
        }

        func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false }

        mutating func skipDigits() {
            while isDigit(peek) { index += 1 }
        }

        /// A string; the UTF-8 was checked as a whole, so only controls and escapes matter here.
        mutating func string() -> Bool {
            index += 1  // "
            while let byte = peek {
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return true
                case UInt8(ascii: "\\"):
                    guard let escaped = peek else { return false }
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                         UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        continue
                    case UInt8(ascii: "u"):
                        guard let unit = hex4() else { return false }
                        if (0xDC00...0xDFFF).contains(unit) { return false }  // a low surrogate first
                        if (0xD800...0xDBFF).contains(unit) {
                            guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(),
                                  (0xDC00...0xDFFF).contains(low) else { return false }
                        }
                    default:
                        return false
                    }
                case 0x00..<0x20:
                    return false
                default:
                    continue
                }
            }
            return false  // unterminated
        }

        mutating func hex4() -> UInt16? {
            guard bytes.endIndex - index >= 4 else { return nil }
            var unit: UInt16 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                unit = unit << 4 | UInt16(digit)
                index += 1
            }
            return unit
        }
    }
}
