import CLibNFC

/// The boolean device properties the project sets (`nfc_property`, `NP_*`).
public enum LibNFCProperty: Sendable, CaseIterable {
    /// NP_HANDLE_CRC: the chip appends and checks CRC_A.
    case handleCRC
    /// NP_HANDLE_PARITY: the chip handles parity bits.
    case handleParity
    /// NP_ACTIVATE_FIELD: the RF field is on.
    case activateField
    /// NP_INFINITE_SELECT: selection and polling retry forever.
    case infiniteSelect
    /// NP_EASY_FRAMING: data goes through InDataExchange (ISO-DEP / MIFARE framing by the chip)
    /// instead of InCommunicateThru (raw frames).
    case easyFraming
    /// NP_AUTO_ISO14443_4: the chip sends RATS itself for ISO 14443-4 tags.
    case autoISO14443_4

    var cValue: nfc_property {
        switch self {
        case .handleCRC: return NP_HANDLE_CRC
        case .handleParity: return NP_HANDLE_PARITY
        case .activateField: return NP_ACTIVATE_FIELD
        case .infiniteSelect: return NP_INFINITE_SELECT
        case .easyFraming: return NP_EASY_FRAMING
        case .autoISO14443_4: return NP_AUTO_ISO14443_4
        }
    }
}
