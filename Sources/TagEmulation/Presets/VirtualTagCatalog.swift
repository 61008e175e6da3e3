import NDEF
import NFCTags

/// Named virtual tags for `nfctap emulate --preset`, `nfctap demo` and tests, and tags made
/// from a file (a raw Type 2 memory image, or an NDEF message to put on a chip).
public enum VirtualTagCatalog {
    /// Chips a file's NDEF message can be put on.
    public enum Chip: String, CaseIterable, Sendable {
        case ntag213, ntag215, ntag216, ultralightEV1 = "ultralight-ev1", type4, type4v1 = "type4-v1", type4v3 = "type4-v3"
    }

    public struct Preset: Sendable {
        public var name: String
        public var summary: String
        let make: @Sendable () throws -> VirtualTag
    }

    public static let presets: [Preset] = [
        Preset(name: "ntag213", summary: "NTAG213 with https://github.com/nfctap") { try ndef(uri("https://github.com/nfctap"), on: .ntag213) },
        Preset(name: "ntag215", summary: "NTAG215 with a text record") { try ndef(text("Hello from nfctap", "en"), on: .ntag215) },
        Preset(name: "ntag216", summary: "NTAG216 with a Smart Poster-sized message") { try ndef(uri("https://example.com/" + String(repeating: "n", count: 600)), on: .ntag216) },
        Preset(name: "blank-ntag213", summary: "a formatted, empty NTAG213") { VirtualType2Tag.blankNTAG213() },
        Preset(name: "blank-ntag215", summary: "a formatted, empty NTAG215") { VirtualType2Tag.blankNTAG215() },
        Preset(name: "blank-ntag216", summary: "a formatted, empty NTAG216") { VirtualType2Tag.blankNTAG216() },
        Preset(name: "zebra-zq320", summary: "a Zebra ZQ320's Print Touch tag (Bluetooth Classic)") { VirtualType2Tag.zebraZQ320() },
        Preset(name: "zebra-zd410", summary: "a Zebra ZD410's Print Touch tag (Bluetooth LE, mBL)") {
            try ndef(uri("http://www.zebra.com/apps/r/nfc?mE=00074d6c9e65&mW=000000000000&mBL=5cf8218dc99b&c=ZD41H23-D0PE00EZ&s=50J163001771&v=0"), on: .ntag213)
        },
        Preset(name: "type4", summary: "Type 4 tag (CC v2.0) with a URI") { VirtualType4Tag.smallMessage(version: .v2) },
        Preset(name: "type4-v1", summary: "legacy Type 4 tag (NDEF application v1)") { VirtualType4Tag.smallMessage(version: .v1) },
        Preset(name: "type4-v3", summary: "Type 4 tag (CC v3.0, ENLEN) with a 40 KB message") { VirtualType4Tag.largeMessage(version: .v3, size: 40_000) },
        Preset(name: "type4-readonly", summary: "read-only Type 4 tag") { VirtualType4Tag.readOnly(version: .v2) },
        Preset(name: "icode-slix2", summary: "ICODE SLIX2 (ISO 15693, Type 5) with a URI; --vpcd only") {
            VirtualISO15693Tag.formatted(.icodeSLIX2, uid: VirtualISO15693Tag.exampleUID(.icodeSLIX2), message: uri("https://github.com/nfctap"))
        },
        Preset(name: "st25dv04k", summary: "ST25DV04K (ISO 15693, Type 5) with a text record; --vpcd only") {
            VirtualISO15693Tag.formatted(.st25dv04k, uid: VirtualISO15693Tag.exampleUID(.st25dv04k), message: try text("Hello from nfctap", "en"))
        },
        Preset(name: "tag-it-hfi-plus", summary: "TI Tag-it HF-I Plus (ISO 15693, Type 5), formatted and empty; --vpcd only") {
            VirtualISO15693Tag.formatted(.tagItHFIPlus, uid: VirtualISO15693Tag.exampleUID(.tagItHFIPlus))
        },
        Preset(name: "icode-slix2-label", summary: "a real ICODE SLIX2 library label (Flipper's dump), no NDEF; --vpcd only") {
            VirtualISO15693Tag.flipperSLIX2Dump()
        },
        Preset(name: "classic-1k", summary: "MIFARE Classic 1K, NDEF formatted (MAD), with a URI") {
            VirtualMifareClassic.ndefFormatted(.classic1K, message: uri("https://github.com/nfctap"))
        },
        Preset(name: "classic-4k", summary: "MIFARE Classic 4K, NDEF formatted (MAD1 and MAD2), with a text record") {
            VirtualMifareClassic.ndefFormatted(.classic4K, message: try text("Hello from nfctap", "en"), uid: [0x7A, 0x41, 0x0C, 0x93])
        },
        Preset(name: "blank-classic-1k", summary: "a blank MIFARE Classic 1K (transport keys, no MAD), as sold") {
            VirtualMifareClassic.blank(.classic1K)
        },
        Preset(name: "felica-lite-s", summary: "FeliCa Lite-S (Type 3) with a URI; PC/SC needs a pass-through --profile") {
            VirtualFeliCaCard.liteS(ndef: try NDEFMessage(records: [.uri("https://github.com/nfctap")]).encoded())
        },
        Preset(name: "felica-transit", summary: "FeliCa Standard shaped like a transit card (systems 0003, FE00; no keys)") {
            VirtualFeliCaCard.transitCard()
        },
    ]

    public static func preset(named name: String) -> Preset? { presets.first { $0.name == name } }

    public static func make(preset name: String) throws -> VirtualTag {
        guard let preset = preset(named: name) else {
            throw VirtualTagCatalogError.unknownPreset(name, known: presets.map(\.name))
        }
        return try preset.make()
    }

    /// A tag from a file's bytes: a Type 2 memory image when the size is exactly a chip's
    /// memory (NTAG213 180, NTAG215 540, NTAG216 924 bytes…), otherwise an NDEF message put on `chip`.
    public static func make(fileBytes bytes: [UInt8], chip: Chip = .ntag215) throws -> VirtualTag {
        for product in [Type2Product.ntag213, .ntag215, .ntag216, .ultralightEV1MF0UL11, .ultralightEV1MF0UL21] {
            if let pages = product.totalPages, pages * 4 == bytes.count {
                return try VirtualType2Tag(product: product, memory: bytes)
            }
        }
        do {
            _ = try NDEFMessage(bytes: bytes, mode: .strict)
        } catch {
            throw VirtualTagCatalogError.notNDEFOrImage(String(describing: error))
        }
        return try ndef(bytes, on: chip)
    }

    /// Puts an NDEF message on a chip.
    public static func ndef(_ message: [UInt8], on chip: Chip, uid: [UInt8]? = nil) throws -> VirtualTag {
        switch chip {
        case .ntag213: return try VirtualType2Tag(product: .ntag213, uid: uid ?? VirtualType2Tag.defaultUID, ndef: message)
        case .ntag215: return try VirtualType2Tag(product: .ntag215, uid: uid ?? VirtualType2Tag.defaultUID, ndef: message)
        case .ntag216: return try VirtualType2Tag(product: .ntag216, uid: uid ?? VirtualType2Tag.defaultUID, ndef: message)
        case .ultralightEV1: return try VirtualType2Tag(product: .ultralightEV1MF0UL21, uid: uid ?? VirtualType2Tag.defaultUID, ndef: message)
        case .type4: return VirtualType4Tag(version: .v2, ndef: message, maxSize: max(message.count + 2, 0x0800))
        case .type4v1: return VirtualType4Tag(version: .v1, ndef: message, maxSize: max(message.count + 2, 0x0800))
        case .type4v3: return VirtualType4Tag(version: .v3, ndef: message, maxSize: max(message.count + 4, 0x0800))
        }
    }

    private static func uri(_ text: String) -> [UInt8] {
        (try? NDEFMessage(records: [.uri(text)]).encoded()) ?? []
    }

    private static func text(_ text: String, _ language: String) throws -> [UInt8] {
        try NDEFMessage(records: [try .text(text, language: language)]).encoded()
    }
}

public enum VirtualTagCatalogError: Error, CustomStringConvertible, Equatable {
    case unknownPreset(String, known: [String])
    case notNDEFOrImage(String)

    public var description: String {
        switch self {
        case let .unknownPreset(name, known): return "no preset \"\(name)\"; presets: \(known.joined(separator: ", "))"
        case let .notNDEFOrImage(why): return "the file is neither a Type 2 memory image (180/540/924 bytes) nor an NDEF message: \(why)"
        }
    }
}
