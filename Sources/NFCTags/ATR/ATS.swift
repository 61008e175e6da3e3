/// A parsed ISO/IEC 14443-4 Answer To Select (type A): TL, T0, TA1, TB1, TC1, historical bytes.
/// The historical bytes are what a PC/SC reader puts into the ATR of an ISO-DEP card.
public struct ATS: Equatable, Hashable, Sendable {
    /// The ATS as received, length byte TL included.
    public let bytes: [UInt8]
    /// T0 (format byte); nil when TL = 1.
    public let formatByte: UInt8?
    public let ta1: UInt8?
    public let tb1: UInt8?
    public let tc1: UInt8?
    public let historicalBytes: [UInt8]

    /// - Throws: `ATRError.empty` for no bytes, `ATRError.truncated` when TL is not the byte
    ///   count or T0 announces interface bytes that TL leaves no room for.
    public init(bytes: [UInt8]) throws(ATRError) {
        guard let tl = bytes.first else { throw ATRError.empty }
        guard Int(tl) == bytes.count, tl >= 1 else {
            throw ATRError.truncated("ATS length byte says \(tl), \(bytes.count) bytes arrived")
        }
        self.bytes = bytes
        guard bytes.count >= 2 else {
            formatByte = nil; ta1 = nil; tb1 = nil; tc1 = nil; historicalBytes = []
            return
        }
        let t0 = bytes[1]
        formatByte = t0
        var index = 2
        func take(_ present: Bool, _ name: String) throws(ATRError) -> UInt8? {
            guard present else { return nil }
            guard index < bytes.count else { throw ATRError.truncated("ATS \(name)") }
            defer { index += 1 }
            return bytes[index]
        }
        ta1 = try take(t0 & 0x10 != 0, "TA(1)")
        tb1 = try take(t0 & 0x20 != 0, "TB(1)")
        tc1 = try take(t0 & 0x40 != 0, "TC(1)")
        historicalBytes = Array(bytes[index...])
    }
}
