import NDEF
import NFCTags
import TagEmulation
import Testing

/// The in-process link of TagEmulation, by the name these tests use.
typealias DirectISO15693Link = VirtualISO15693Link

enum T5 {
    static func hex(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
        T2.hex(text, sourceLocation: sourceLocation)
    }

    /// URI record "https://a.com": `D1 01 06 55 04 61 2E 63 6F 6D` (10 bytes).
    static let uriMessage: [UInt8] = [0xD1, 0x01, 0x06, 0x55, 0x04, 0x61, 0x2E, 0x63, 0x6F, 0x6D]

    static func message(_ n: Int, seed: Int = 0) -> [UInt8] {
        (0 ..< n).map { UInt8(truncatingIfNeeded: $0 * 7 + seed * 13 + 1) }
    }

    static func slix2(_ message: [UInt8] = uriMessage) -> VirtualISO15693Tag {
        .formatted(.icodeSLIX2, uid: VirtualISO15693Tag.exampleUID(.icodeSLIX2), message: message)
    }

    static func st25dv(_ message: [UInt8] = uriMessage) -> VirtualISO15693Tag {
        .formatted(.st25dv04k, uid: VirtualISO15693Tag.exampleUID(.st25dv04k), message: message)
    }

    static func tagIt(_ message: [UInt8] = uriMessage) -> VirtualISO15693Tag {
        .formatted(.tagItHFIPlus, uid: VirtualISO15693Tag.exampleUID(.tagItHFIPlus), message: message)
    }
}
