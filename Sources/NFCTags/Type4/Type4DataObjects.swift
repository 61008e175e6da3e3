/// The BER-TLV data objects that READ BINARY `B1` and UPDATE BINARY `D7` carry (ISO 7816-4 §7.2.2,
/// NFC Forum T4T 3.0): the offset object `54 03 o2 o1 o0` and the data object `53 len data`
/// (B1 answers with it, D7 sends it after the offset object). Shared with the emulator.
package enum Type4DataObjects {
    /// `54 03 o2 o1 o0`; `offset` must be 0...0xFFFFFF.
    package static func offset(_ offset: Int) -> [UInt8] {
        [Type4.offsetDOTag, 0x03, UInt8((offset >> 16) & 0xFF), UInt8((offset >> 8) & 0xFF), UInt8(offset & 0xFF)]
    }

    /// BER length octets for `n` (0...0xFFFF): `n`, `81 n` or `82 hi lo`.
    package static func berLength(_ n: Int) -> [UInt8] {
        if n < 0x80 { return [UInt8(n)] }
        if n <= 0xFF { return [0x81, UInt8(n)] }
        return [0x82, UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)]
    }

    /// Bytes `53 len` in front of `n` data bytes.
    package static func headerSize(_ n: Int) -> Int { 1 + berLength(n).count }

    /// `53 len data`.
    package static func data(_ bytes: [UInt8]) -> [UInt8] {
        [Type4.dataDOTag] + berLength(bytes.count) + bytes
    }

    /// The most data bytes whose `53 len data` object fits in `total` bytes (0 if none).
    package static func largestPayload(fitting total: Int) -> Int {
        var best = 0
        for header in 2...4 {
            let n = total - header
            if n >= 1, n <= 0xFFFF, n + headerSize(n) <= total { best = max(best, n) }
        }
        return best
    }

    /// Parses `53 len data` that fills `bytes` exactly; nil when it does not.
    package static func parseData(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        guard bytes.count >= 2, bytes[bytes.startIndex] == Type4.dataDOTag else { return nil }
        var i = bytes.startIndex + 1
        let first = bytes[i]
        i += 1
        let length: Int
        switch first {
        case 0x00...0x7F:
            length = Int(first)
        case 0x81:
            guard i < bytes.endIndex else { return nil }
            length = Int(bytes[i])
            i += 1
        case 0x82:
            guard i + 1 < bytes.endIndex else { return nil }
            length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            i += 2
        default:
            return nil
        }
        guard bytes.endIndex - i == length else { return nil }
        return Array(bytes[i...])
    }

    /// Parses a leading `54 03 o2 o1 o0`; returns the offset and the bytes after it.
    package static func parseOffset(_ bytes: ArraySlice<UInt8>) -> (offset: Int, rest: ArraySlice<UInt8>)? {
        guard bytes.count >= 5 else { return nil }
        let s = bytes.startIndex
        guard bytes[s] == Type4.offsetDOTag, bytes[s + 1] == 0x03 else { return nil }
        let offset = Int(bytes[s + 2]) << 16 | Int(bytes[s + 3]) << 8 | Int(bytes[s + 4])
        return (offset, bytes[(s + 5)...])
    }
}
