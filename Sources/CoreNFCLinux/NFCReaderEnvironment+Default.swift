import NFCReaders
import NFCTags

// The production wiring. Integration point for the lead: replace the two closures below with
// the PC/SC + libnfc backends and `Type2Tag(link:)` / `Type4Tag(transceiver:)`.
extension NFCReaderEnvironment {
    static var systemDefault: NFCReaderEnvironment {
        NFCReaderEnvironment(
            makeBackends: {
                throw ReaderError.serviceUnavailable(
                    hint: "no reader backend is built in; start pcscd (`sudo systemctl start pcscd`) and use a build with the PC/SC backend")
            },
            makeNDEFOperations: { connection in
                throw TagError.unsupported("NDEF on \(connection.tag.technology.rawValue) tags")
            })
    }
}
