// Hex text <-> bytes. One helper for the whole project (CLI input, test vectors, JSON output).

extension Array where Element == UInt8 {
    /// Parses hex text such as `"D1 01 0B"`, `"d1010b"` or `"D1:01:0B"`.
    /// Spaces, colons, dashes, newlines and a leading `0x` are ignored. Returns nil on an odd
    /// number of digits or any other character.
    public init?(hex text: some StringProtocol) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 2)
        var high: UInt8? = nil
        var previous: UInt8 = 0
        for c in text.utf8 {
            let nibble: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = c - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "\n"),
                 UInt8(ascii: "\r"), UInt8(ascii: "\t"), UInt8(ascii: ","):
                guard high == nil else { return nil }
                previous = c
                continue
            case UInt8(ascii: "x"), UInt8(ascii: "X"):
                // Only as part of a "0x" prefix: the "0" was taken as a high nibble.
                guard high == 0, previous == UInt8(ascii: "0") else { return nil }
                high = nil
                previous = c
                continue
            default:
                return nil
            }
            previous = c
            if let h = high {
                bytes.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        guard high == nil else { return nil }
        self = bytes
    }

    /// Upper-case hex with no separators: `D1010B`.
    public var hexString: String { hexString(separator: "") }

    /// Upper-case hex with a separator between bytes: `D1 01 0B`.
    public func hexString(separator: String) -> String {
        let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]
        var out = ""
        out.reserveCapacity(count * (2 + separator.count))
        for (i, b) in enumerated() {
            if i > 0 { out += separator }
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return out
    }
}

extension ArraySlice where Element == UInt8 {
    public var hexString: String { Array(self).hexString }
}
