import Foundation

/// Core NFC's `NFCNDEFMessage`: an NDEF message of one or more records.
/// (Declarations by the lead; the NDEF codec work fills in decoding and `length`.)
public class NFCNDEFMessage: NSObject {
    public var records: [NFCNDEFPayload]

    public init(records: [NFCNDEFPayload]) {
        self.records = records
    }

    /// The message as NDEF bytes, for writing to a tag. Used by the session layer.
    package func encodedBytes() throws -> [UInt8] {
        throw CocoaError(.featureUnsupported)  // replaced by the NDEF codec work
    }

    /// Decodes NDEF bytes read from a tag (relaxed mode: what real tags need). Used by the session layer.
    package static func decodeFromTag(_ bytes: [UInt8]) throws -> NFCNDEFMessage {
        throw CocoaError(.featureUnsupported)  // replaced by the NDEF codec work
    }
}
