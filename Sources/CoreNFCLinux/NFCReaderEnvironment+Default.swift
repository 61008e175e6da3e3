import NFCReaders
import NFCTags

// The production wiring: PC/SC readers first, then libnfc devices named in LIBNFC_DEVICE or
// /etc/nfc/libnfc.conf (issue 5: no libnfc USB scan that would fight pcscd for an ACR122U).
extension NFCReaderEnvironment {
    static var systemDefault: NFCReaderEnvironment {
        NFCReaderEnvironment(
            makeBackends: { [PCSCBackend(), LibNFCBackend.configuredDevicesOnly()] },
            makeNDEFOperations: { try $0.ndefOperations() })
    }
}
