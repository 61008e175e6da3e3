/// What the PC/SC Part 3 standard byte SS and card name NN NN of a storage-card ATR say about
/// the technology (docs/tags-and-readers.md §7.9).
public enum StorageCardTechnology: Sendable, Hashable {
    /// ISO 14443A part 3 (or no standard given): NFC Forum Type 2 unless the name says MIFARE
    /// Classic/Mini.
    case iso14443A
    /// MIFARE Classic 1K/4K or Mini: not an NFC Forum type.
    case mifareClassic
    /// ISO 14443B storage cards (SS `05`–`07`).
    case iso14443B
    /// ISO 15693 part 3/4 (SS `0B`/`0C`): NFC Forum Type 5.
    case iso15693
    /// ISO 15693 part 1/2 (SS `09`/`0A`, HID iCLASS readers) and PicoPass names: not Type 5.
    case iclass
    /// FeliCa (SS `11`, or card name `00 3B`).
    case felica
    /// Below 135 kHz (SS `40`): EM4100, HID Prox, Hitag….
    case lowFrequency
    /// Contact or another standard.
    case other(standard: UInt8)

    public init(standard: UInt8, name: StorageCardName) {
        switch (standard, name) {
        // FeliCa 212/424 (SS 11/12); older ACS firmware says SS 03 with names F0 11 / F0 12
        // (docs/tags-and-readers.md §9.1).
        case (_, .felica), (0x11, _), (0x12, _), (_, .unknown(0xF011)), (_, .unknown(0xF012)): self = .felica
        case (0x40, _): self = .lowFrequency
        case (0x0B, _), (0x0C, _):
            // PicoPass / iCLASS names (00 17 … 00 20) under a 15693 standard byte.
            if case let .unknown(code) = name, (0x17 ... 0x20).contains(code) { self = .iclass } else { self = .iso15693 }
        case (0x09, _), (0x0A, _): self = .iclass
        case (0x05 ... 0x07, _): self = .iso14443B
        case (_, .mifareClassic1K), (_, .mifareClassic4K), (_, .mifareMini): self = .mifareClassic
        case (0x00 ... 0x03, _): self = .iso14443A
        default: self = .other(standard: standard)
        }
    }
}

extension StorageCardName {
    /// The PC/SC Part 3 name of ISO 15693 cards (NN NN), nil for other codes.
    public var iso15693Name: String? {
        switch code {
        case 0x000E: return "Infineon SRF55V10P"
        case 0x000F: return "Infineon SRF55V02P"
        case 0x0010: return "Infineon SRF55V10S"
        case 0x0011: return "Infineon SRF55V02S"
        case 0x0012: return "TI Tag-it"
        case 0x0013: return "ST LRI512"
        case 0x0014: return "NXP ICODE SLI"
        case 0x0015: return "TEMPSENS"
        case 0x0016: return "NXP I.CODE1"
        case 0x0021: return "ST LRI64"
        case 0x0022: return "NXP I.CODE UID"
        case 0x0023: return "NXP I.CODE EPC"
        case 0x0024: return "ST LRI12"
        case 0x0025: return "ST LRI128"
        case 0x0035: return "NXP ICODE SL2"
        case 0x003C: return "Melexis MLX90129"
        default: return nil
        }
    }
}
