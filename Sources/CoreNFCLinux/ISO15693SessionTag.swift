import Foundation
import NFCTags
import ReaderCore

/// An ISO 15693 tag (NFC Forum Type 5) as Core NFC shows it: `NFCISO15693Tag`. Commands go out as
/// Core NFC sends them — the address flag and the UID are added unless `.select` is given — through
/// the reader's ISO 15693 link (docs/tags-and-readers.md §7.10).
final class ISO15693SessionTag: NSObject, SessionTag, NFCISO15693Tag {
    let core: SessionTagCore
    init(_ core: SessionTagCore) { self.core = core }
    init?(coder: NSCoder) { nil }

    override var description: String { tagDescription }

    public var type: __NFCTagType { .iso15693 }
    var familyName: String { "NFCISO15693Tag" }
    var asNFCTag: NFCTag? { .iso15693(self) }

    /// The UID, most significant byte first (`E0 mfr …`).
    public var identifier: Data { Data(presence.detected.uid) }
    /// Byte 1 of the UID (ISO/IEC 7816-6: `04` NXP, `02` ST, `07` TI …).
    public var icManufacturerCode: Int { presence.detected.uid.count == 8 ? Int(presence.detected.uid[1]) : 0 }
    /// The 6 bytes after the manufacturer code.
    public var icSerialNumber: Data { presence.detected.uid.count == 8 ? Data(presence.detected.uid[2...]) : Data() }

    /// One command; `parse` gets the response data (flags byte removed). A tag's error answer is
    /// error 102 with its code under `NFCISO15693TagResponseErrorKey`; a command the reader cannot
    /// pass is answered the same way with code `01` (command not supported), which is what an iPhone
    /// reports when the tag refuses one.
    /// - Parameters:
    ///   - raw: the frame goes as given (no address flag, no UID) and `parse` gets the whole answer.
    ///   - keepsFlags: `parse` gets the whole answer, flags byte first, error flag included (Core
    ///     NFC's Authenticate, Key Update, Read Buffer; docs/tags-and-readers.md §7.12).
    ///   - silenceIsSuccess: no answer in time (`TagError.timeout`, the reader's `64 01`) or an
    ///     empty one (`TagError.tagLost` from a reader that reported success) is `parse([])`: the
    ///     tag of a Challenge stays silent (docs/tags-and-readers.md §7.12).
    func send<T: Sendable>(_ flags: NFCISO15693RequestFlag, code: UInt8, parameters: [UInt8], raw: Bool = false,
                 keepsFlags: Bool = false, silenceIsSuccess: Bool = false,
                 parse: @escaping @Sendable ([UInt8]) throws -> T,
                 completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        engine.perform(self, kind: .command, { connection -> T in
            guard let link = connection.link.iso15693 else {
                throw NFCReaderError(.readerErrorUnsupportedFeature,
                                     message: "reader \(connection.link.tag.reader.name) cannot pass ISO 15693 commands")
            }
            var bits = flags.rawValue
            if !raw, !flags.contains(.select) { bits |= NFCISO15693RequestFlag.address.rawValue }
            let frame = ISO15693Frame.request(code: code, flags: bits, uid: link.uid, parameters: parameters)
            let response: [UInt8]
            do {
                response = try link.transceive(frame)
            } catch TagError.unsupported {
                throw TagError.iso15693(code: 0x01)
            } catch TagError.timeout where silenceIsSuccess {
                return try parse([])
            } catch TagError.tagLost where silenceIsSuccess {
                return try parse([])
            }
            if raw || keepsFlags { return try parse(response) }
            return try parse(try ISO15693Frame.responseData(response, for: "command \([code].hexString)"))
        }, completion: { result in
            completion(result.mapError { $0 as any Error })
        })
    }
}
