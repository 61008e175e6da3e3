import NFCReaders
import NFCTags
import ReaderCore

// The production wiring: PC/SC readers first, then libnfc devices named in LIBNFC_DEVICE or
// /etc/nfc/libnfc.conf (issue 5: no libnfc USB scan that would fight pcscd for an ACR122U).
extension NFCReaderEnvironment {
    static var systemDefault: NFCReaderEnvironment { system(libnfcDevices: []) }

    /// PC/SC readers and the configured libnfc devices, plus `libnfcDevices` (connstrings a user
    /// named, e.g. `--reader libnfc:pn532_uart:/dev/ttyUSB0`). With `readerQueries` (`--reader`),
    /// tags on PC/SC readers none of them names are left alone (no UID read). `classicKeys` are
    /// tried on MIFARE Classic sectors after the well-known keys.
    public static func system(libnfcDevices extra: [String], readerQueries: [String] = [],
                              classicKeys: [[UInt8]] = []) -> NFCReaderEnvironment {
        NFCReaderEnvironment(
            makeBackends: {
                let pcsc = readerQueries.isEmpty
                    ? PCSCBackend()
                    : PCSCBackend(identifiesTags: { name in readerQueries.contains { ReaderSelection.matches($0, name: name) } })
                return [pcsc, LibNFCBackend.configuredDevicesOnly(adding: extra)]
            },
            makeNDEFOperations: { try $0.ndefOperations(classicKeys: classicKeys) })
    }
}
