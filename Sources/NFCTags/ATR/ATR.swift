import NDEF

/// A parsed Answer To Reset (ISO/IEC 7816-3 §8.2), as PC/SC reports it for contact cards and
/// as contactless readers build it (PC/SC Part 3 §3.1.3.2.3).
///
/// Parsing walks the whole structure: TS, T0, every TAi/TBi/TCi/TDi group the Y nibbles
/// announce, K historical bytes, and TCK when it must be present. Classification
/// (`contactless`) is done only on a fully parsed ATR, never from a single byte.
public struct ATR: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Most bytes an ATR may have: TS + 32.
    public static let maxLength = 33

    /// TS: how the card encodes bits on the contact interface.
    public enum Convention: Equatable, Hashable, Sendable {
        /// TS = `3B`.
        case direct
        /// TS = `3F` (the reader has already decoded the following bytes).
        case inverse
    }

    /// One group of interface bytes TAi, TBi, TCi, TDi (i from 1); absent bytes are nil.
    public struct InterfaceBytes: Equatable, Hashable, Sendable {
        public var ta: UInt8?
        public var tb: UInt8?
        public var tc: UInt8?
        public var td: UInt8?

        public init(ta: UInt8? = nil, tb: UInt8? = nil, tc: UInt8? = nil, td: UInt8? = nil) {
            self.ta = ta
            self.tb = tb
            self.tc = tc
            self.td = td
        }

        /// The protocol T that TDi indicates (low nibble), if TDi is present.
        public var protocolType: UInt8? { td.map { $0 & 0x0F } }
    }

    /// The ATR exactly as received.
    public let bytes: [UInt8]
    public let convention: Convention
    /// Interface byte groups in order: index 0 is TA1...TD1.
    public let interfaceBytes: [InterfaceBytes]
    /// The K historical bytes (K = low nibble of T0).
    public let historicalBytes: [UInt8]
    /// The check byte, present unless only T=0 is indicated.
    public let tck: UInt8?

    /// Parses and checks an ATR.
    /// - Throws: `ATRError` for an empty or over-long ATR, a TS other than 3B/3F, a byte that
    ///   T0/TDi announce but is missing, a missing or wrong TCK, or trailing bytes.
    public init(bytes: [UInt8]) throws(ATRError) {
        guard !bytes.isEmpty else { throw ATRError.empty }
        guard bytes.count <= Self.maxLength else { throw ATRError.tooLong(bytes.count) }
        switch bytes[0] {
        case 0x3B: convention = .direct
        case 0x3F: convention = .inverse
        default: throw ATRError.invalidInitialCharacter(bytes[0])
        }
        guard bytes.count >= 2 else { throw ATRError.truncated("T0") }
        let t0 = bytes[1]
        let k = Int(t0 & 0x0F)
        var index = 2
        var groups: [InterfaceBytes] = []
        var y = t0 >> 4
        var onlyT0 = true
        // Each group is announced by the Y nibble of the byte before it (T0, then TDi).
        while y != 0 {
            let i = groups.count + 1
            var group = InterfaceBytes()
            func next(_ name: String) throws(ATRError) -> UInt8 {
                guard index < bytes.count else { throw ATRError.truncated("\(name)\(i)") }
                defer { index += 1 }
                return bytes[index]
            }
            if y & 0x1 != 0 { group.ta = try next("TA") }
            if y & 0x2 != 0 { group.tb = try next("TB") }
            if y & 0x4 != 0 { group.tc = try next("TC") }
            if y & 0x8 != 0 { group.td = try next("TD") }
            groups.append(group)
            if let td = group.td {
                // ISO 7816-3 §8.2.5: TCK is absent only when T=0 alone is indicated.
                if td & 0x0F != 0 { onlyT0 = false }
                y = td >> 4
            } else {
                y = 0
            }
        }
        guard index + k <= bytes.count else { throw ATRError.truncated("historical bytes") }
        historicalBytes = Array(bytes[index..<(index + k)])
        index += k
        if onlyT0 {
            tck = nil
            guard index == bytes.count else { throw ATRError.unexpectedTrailingBytes(bytes.count - index) }
        } else {
            guard index < bytes.count else { throw ATRError.missingCheckByte }
            guard index == bytes.count - 1 else { throw ATRError.unexpectedTrailingBytes(bytes.count - 1 - index) }
            let actual = bytes[index]
            let expected = bytes[1..<index].reduce(0, ^)
            guard expected == actual else { throw ATRError.checksumMismatch(expected: expected, actual: actual) }
            tck = actual
        }
        interfaceBytes = groups
        self.bytes = bytes
    }

    /// Protocols the ATR offers, in order of first mention; `[0]` when no TD1 is present
    /// (T=0 is then implied). T=15 marks global interface bytes and is not listed.
    public var protocols: [UInt8] {
        var out: [UInt8] = []
        for t in interfaceBytes.compactMap(\.protocolType) where t != 15 && !out.contains(t) {
            out.append(t)
        }
        return out.isEmpty ? [0] : out
    }

    public var description: String { bytes.hexString(separator: " ") }
}
