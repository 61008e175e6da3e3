import NDEF
import NFCTags

/// A human explanation of a contactless ATR: the PC/SC Part 3 fields a reader builds
/// (docs/tags-and-readers.md §3) and, when pcsc-tools' list is installed, what it says.
package enum ATRExplanation {
    /// Lines such as "PC/SC storage card: RID A0 00 00 03 06 (PC/SC workgroup), standard 03 (ISO
    /// 14443 A part 3), card name 00 03 (MIFARE Ultralight / NTAG21x)". An ATR that does not parse
    /// is said to be so, never guessed at.
    package static func lines(atr bytes: [UInt8], list: SmartcardList? = nil) -> [String] {
        guard !bytes.isEmpty else { return ["no ATR"] }
        var lines: [String] = []
        do {
            let atr = try ATR(bytes: bytes)
            switch atr.contactless {
            case let .storageCard(standard, name):
                lines.append("PC/SC storage card: RID \(ATR.pcscRID.hexString(separator: " ")) (PC/SC workgroup), "
                             + "standard \([standard].hexString) (\(standardName(standard))), "
                             + "card name \(cardNameHex(name.code)) (\(cardName(name.code)))")
            case let .iso14443_4(historical):
                lines.append("ISO 14443-4 card: historical bytes "
                             + (historical.isEmpty ? "none" : historical.hexString(separator: " ")))
            case .other:
                lines.append("not a PC/SC contactless ATR (a contact card, or a reader's own format)")
            }
        } catch {
            lines.append("ATR does not parse: \(error)")
        }
        if let list {
            let matches = list.descriptions(matching: bytes)
            lines += matches.isEmpty ? ["not in \(list.path)"] : matches.map { "\(list.path): \($0)" }
        }
        return lines
    }

    /// SS of a storage-card ATR (PC/SC Part 3 supplement, "standard" byte).
    static func standardName(_ ss: UInt8) -> String {
        switch ss {
        case 0x03: return "ISO 14443 A part 3"
        case 0x07: return "ISO 14443 B part 3"
        case 0x0B: return "ISO 15693 part 3"
        case 0x11: return "FeliCa"
        case 0x40: return "low frequency"
        default: return "standard \([ss].hexString)"
        }
    }

    /// NN NN of a storage-card ATR.
    static func cardName(_ code: UInt16) -> String {
        switch code {
        case 0x0001: return "MIFARE Classic 1K"
        case 0x0002: return "MIFARE Classic 4K"
        case 0x0003: return "MIFARE Ultralight / NTAG21x"
        case 0x0026: return "MIFARE Mini"
        case 0x003A: return "MIFARE Ultralight C"
        case 0x003B: return "FeliCa"
        case 0x003D: return "MIFARE Ultralight EV1"
        default: return "not a name nfctap knows"
        }
    }

    static func cardNameHex(_ code: UInt16) -> String {
        [UInt8(code >> 8), UInt8(code & 0xFF)].hexString(separator: " ")
    }
}
