import NFCReaders
import NFCTags

// The production wiring: PC/SC readers first, then libnfc devices named in LIBNFC_DEVICE or
// /etc/nfc/libnfc.conf (issue 5: no libnfc USB scan that would fight pcscd for an ACR122U).
extension NFCReaderEnvironment {
    static var systemDefault: NFCReaderEnvironment { system(libnfcDevices: []) }

    /// PC/SC readers and the configured libnfc devices, plus `libnfcDevices` (connstrings a user
    /// named, e.g. `--reader libnfc:pn532_uart:/dev/ttyUSB0`).
    public static func system(libnfcDevices extra: [String]) -> NFCReaderEnvironment {
        NFCReaderEnvironment(
            makeBackends: { [PCSCBackend(), LibNFCBackend.configuredDevicesOnly(adding: extra)] },
            makeNDEFOperations: { try $0.ndefOperations() })
    }
}
