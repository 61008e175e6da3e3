import Foundation

/// Core NFC's `NFCNDEFPayload`: one NDEF record.
/// (Declarations by the lead; the NDEF codec work fills in the helpers.)
public class NFCNDEFPayload: NSObject {
    public var typeNameFormat: NFCTypeNameFormat
    public var type: Data
    public var identifier: Data
    public var payload: Data

    public init(format: NFCTypeNameFormat, type: Data, identifier: Data, payload: Data) {
        self.typeNameFormat = format
        self.type = type
        self.identifier = identifier
        self.payload = payload
    }
}
