/// The access conditions of one sector, bytes 6–8 of its trailer (MF1S50 datasheet §8.7): for
/// each of the sector's four groups (blocks 0–2, or in a 16-block sector blocks 0–4, 5–9, 10–14,
/// and the trailer as group 3) the bits C1 C2 C3, stored twice, once inverted.
///
///     byte 6: ~C2₃ ~C2₂ ~C2₁ ~C2₀  ~C1₃ ~C1₂ ~C1₁ ~C1₀
///     byte 7:  C1₃  C1₂  C1₁  C1₀  ~C3₃ ~C3₂ ~C3₁ ~C3₀
///     byte 8:  C3₃  C3₂  C3₁  C3₀   C2₃  C2₂  C2₁  C2₀
public struct MifareClassicAccessBits: Equatable, Sendable {
    /// C1 C2 C3 of groups 0–3 as a 3-bit number `C1 << 2 | C2 << 1 | C3`.
    public let conditions: [UInt8]

    /// - Throws: `.invalidTagData` when a bit and its inverted copy agree (the card refuses such a
    ///   trailer write, so reading one means the bytes are not a trailer, or are damaged).
    public init(bytes: [UInt8]) throws(TagError) {
        guard bytes.count == 3 else { throw TagError.invalidTagData("access bits of \(bytes.count) bytes, not 3") }
        let c1 = bytes[1] >> 4, c2 = bytes[2] & 0x0F, c3 = bytes[2] >> 4
        let notC1 = bytes[0] & 0x0F, notC2 = bytes[0] >> 4, notC3 = bytes[1] & 0x0F
        guard c1 ^ notC1 == 0x0F, c2 ^ notC2 == 0x0F, c3 ^ notC3 == 0x0F else {
            throw TagError.invalidTagData("access bits \(bytes.hexString): the inverted copies disagree")
        }
        conditions = (0..<4).map { g in (c1 >> g & 1) << 2 | (c2 >> g & 1) << 1 | (c3 >> g & 1) }
    }

    /// Access bits from the conditions of groups 0–3.
    public init(conditions: [UInt8]) {
        precondition(conditions.count == 4 && conditions.allSatisfy { $0 < 8 })
        self.conditions = conditions
    }

    /// Bytes 6–8 of the trailer.
    public var bytes: [UInt8] {
        var c1: UInt8 = 0, c2: UInt8 = 0, c3: UInt8 = 0
        for (g, c) in conditions.enumerated() {
            c1 |= (c >> 2 & 1) << g
            c2 |= (c >> 1 & 1) << g
            c3 |= (c & 1) << g
        }
        return [(~c2 & 0x0F) << 4 | (~c1 & 0x0F), c1 << 4 | (~c3 & 0x0F), c3 << 4 | c2]
    }

    /// Whether key A alone may read the data blocks of `group` (0–2): conditions 000, 010, 100,
    /// 110 and 001 (datasheet Table 8; the others need key B or never allow it).
    public func keyAReads(group: Int) -> Bool { [0b000, 0b010, 0b100, 0b110, 0b001].contains(conditions[group]) }

    /// The trailer's conditions `000`, `010` or `001`: key A reads key B (which then cannot
    /// authenticate), MF1S50 Table 7.
    public var keyAReadsKeyB: Bool { [0b000, 0b010, 0b001].contains(conditions[3]) }

    /// Whether key A may write the data blocks of `group`: condition 000 only.
    public func keyAWrites(group: Int) -> Bool { conditions[group] == 0b000 }

    /// Whether key B may write the data blocks of `group`: 000, 100, 110, 011.
    public func keyBWrites(group: Int) -> Bool { [0b000, 0b100, 0b110, 0b011].contains(conditions[group]) }

    /// NXP AN1305 §6.3.2: an NDEF sector read/write with the NFC Forum key A (`7F 07 88`: data
    /// blocks 000, trailer 011), and read-only (`07 8F 0F`: data blocks 010, trailer 110, whose
    /// keys and access bits no key may change again).
    public static let ndefReadWrite = MifareClassicAccessBits(conditions: [0b000, 0b000, 0b000, 0b011])
    public static let ndefReadOnly = MifareClassicAccessBits(conditions: [0b010, 0b010, 0b010, 0b110])
    /// AN1305 §6.2.2: the MAD sector (`78 77 88`: data blocks 100 — key A reads, key B writes).
    public static let madReadWrite = MifareClassicAccessBits(conditions: [0b100, 0b100, 0b100, 0b011])
}
