import Foundation
import NDEF
import NFCTags
import TagEmulation
import Testing

/// Every tag model the desk commands are proven on, with what `scan` must say about it.
/// Capacities follow from the specs (§1: CC data area, control TLVs, 1- or 3-byte TLV length;
/// §2: maxSize − NLEN/ENLEN), not from the code under test.
struct TagModel: Sendable, CustomTestStringConvertible {
    enum Kind: Sendable { case type2(Type2Product), type4(VirtualType4Tag.Version) }

    var name: String
    var kind: Kind
    var product: String
    var capacity: Int
    var uid: [UInt8]
    /// TLVs before the NDEF TLV in a formatted tag (NTAG213's Lock Control TLV).
    var controlTLVs: [UInt8] = []

    var testDescription: String { name }
    /// `product` / `productGuess` as `scan --json` reports them through vpcd's generic reader: a
    /// Type 2 chip cannot be identified there (no GET_VERSION), so its name is only the CC's guess.
    var reportedProduct: String? { if case .type2 = kind { nil } else { product } }
    var reportedGuess: String? { if case .type2 = kind { product } else { nil } }
    var type: String { if case .type2 = kind { "type2" } else { "type4" } }

    static let all: [TagModel] = [
        // 144-byte data area; the Lock Control TLV (5 bytes) leaves 139, a 1-byte length 137.
        TagModel(name: "NTAG213", kind: .type2(.ntag213), product: "NTAG213", capacity: 137,
                 uid: ScanVectors.uid(0x13), controlTLVs: [0x01, 0x03, 0xA0, 0x0C, 0x34]),
        // 496 bytes: 3-byte length (FF hi lo) → 492.
        TagModel(name: "NTAG215", kind: .type2(.ntag215), product: "NTAG215", capacity: 492, uid: ScanVectors.uid(0x15)),
        // 872 bytes → 868.
        TagModel(name: "NTAG216", kind: .type2(.ntag216), product: "NTAG216", capacity: 868, uid: ScanVectors.uid(0x16)),
        // 128 bytes (CC 10h), 1-byte length → 126.
        TagModel(name: "Ultralight EV1", kind: .type2(.ultralightEV1MF0UL21), product: "MIFARE Ultralight EV1 (MF0UL21)",
                 capacity: 126, uid: ScanVectors.uid(0x21)),
        // A 2048-byte NDEF file with a 2-byte NLEN → 2046; v3's 4-byte ENLEN → 2044.
        TagModel(name: "Type 4 v1", kind: .type4(.v1), product: "Type 4 (mapping 1.0)", capacity: 2046,
                 uid: [0x04, 0x41, 0x01, 0x02, 0x03, 0x04, 0x05]),
        TagModel(name: "Type 4 v2", kind: .type4(.v2), product: "Type 4 (mapping 2.0)", capacity: 2046,
                 uid: [0x04, 0x42, 0x01, 0x02, 0x03, 0x04, 0x05]),
        TagModel(name: "Type 4 v3", kind: .type4(.v3), product: "Type 4 (mapping 3.0)", capacity: 2044,
                 uid: [0x04, 0x43, 0x01, 0x02, 0x03, 0x04, 0x05]),
    ]

    /// A formatted tag of this model holding `ndef` (empty: an empty NDEF message).
    func make(ndef: [UInt8] = []) throws -> VirtualTag {
        switch kind {
        case let .type2(product):
            return try VirtualType2Tag(product: product, uid: uid, ndef: ndef)
        case let .type4(version):
            return VirtualType4Tag(version: version, ndef: ndef, maxSize: 2048, uid: uid)
        }
    }

    /// What the tag's memory must hold after `message` was written to it: the Type 2 data area
    /// from page 4 (control TLVs, NDEF TLV, terminator) or the start of the Type 4 NDEF file.
    func expectedStorage(for message: [UInt8]) -> [UInt8] {
        switch kind {
        case .type2:
            let length: [UInt8] = message.count < 0xFF ? [UInt8(message.count)] : [0xFF, UInt8(message.count >> 8), UInt8(message.count & 0xFF)]
            return controlTLVs + [0x03] + length + message + [0xFE]
        case let .type4(version):
            let n = message.count
            let length: [UInt8] = version == .v3 ? [0, 0, UInt8(n >> 8), UInt8(n & 0xFF)] : [UInt8(n >> 8), UInt8(n & 0xFF)]
            return length + message
        }
    }

    /// The bytes `expectedStorage` is compared with.
    static func storage(of tag: VirtualTag, count: Int) -> [UInt8] {
        if let t2 = tag as? VirtualType2Tag { return Array(t2.memory[16 ..< min(t2.memory.count, 16 + count)]) }
        if let t4 = tag as? VirtualType4Tag { return Array(t4.ndefFile.prefix(count)) }
        return []
    }
}
