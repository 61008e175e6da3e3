/// The IC manufacturer of an ISO 15693 UID (`E0 mfr …`, ISO/IEC 7816-6 codes;
/// docs/tags-and-readers.md §7.5).
public enum ISO15693Manufacturer {
    /// The name of a manufacturer code, nil when it is not in the table.
    public static func name(_ code: UInt8) -> String? {
        switch code {
        case 0x01: return "Motorola"
        case 0x02: return "STMicroelectronics"
        case 0x03: return "Hitachi"
        case 0x04: return "NXP Semiconductors"
        case 0x05: return "Infineon Technologies"
        case 0x06: return "Cylink"
        case 0x07: return "Texas Instruments"
        case 0x08: return "Fujitsu"
        case 0x09: return "Matsushita"
        case 0x0A: return "NEC"
        case 0x0B: return "Oki"
        case 0x0C: return "Toshiba"
        case 0x0D: return "Mitsubishi"
        case 0x0E: return "Samsung"
        case 0x0F: return "Hynix"
        case 0x10: return "LG"
        case 0x11: return "Emosyn-EM"
        case 0x12: return "INSIDE Secure"
        case 0x13: return "ORGA"
        case 0x14: return "Sharp"
        case 0x15: return "Atmel"
        case 0x16: return "EM Microelectronic"
        case 0x17: return "KSW Microtec"
        case 0x1D: return "Fudan"
        case 0x1F: return "Melexis"
        case 0x2E: return "Broadcom"
        case 0x39: return "Silicon Craft"
        case 0x3D: return "HID Global"
        default: return nil
        }
    }

    public static let st: UInt8 = 0x02
    public static let nxp: UInt8 = 0x04
    public static let ti: UInt8 = 0x07
}
