import CoreNFCLinux
import Foundation
@testable import NFCTapKit
import Testing

/// After a failed write the error says what the tag holds, from reading it back (issue class
/// "messages that promise more than happened"): never the tear-safety guarantee when the tag
/// answered with something else.
@Suite struct WriteFailureTextTests {
    static var new: NFCNDEFMessage { NFCNDEFMessage(records: [NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.org/new")!]) }
    static var other: NFCNDEFMessage { NFCNDEFMessage(records: [NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.org/x")!]) }

    func text(_ readBack: Result<NFCNDEFMessage, any Error>) -> String {
        ScanFailure.holding(after: readBack, isNew: { $0.records.first?.payload == Self.new.records.first?.payload })
    }

    @Test("read back: the new message, another, an empty one, a tag gone (the guarantee), garbage (unreadable)")
    func holding() {
        #expect(text(.success(Self.new)) == "the tag holds the new message after all (read back)")
        #expect(text(.success(Self.other)).hasPrefix("the tag holds a message of \(Self.other.length) bytes that is not the new one"))
        #expect(text(.failure(NFCReaderError(.ndefReaderSessionErrorZeroLengthMessage))) == "the tag holds an empty message (read back)")
        let silent = text(.failure(NFCReaderError(.readerTransceiveErrorTagConnectionLost, message: "tag lost")))
        #expect(silent.hasPrefix("it did not answer a read-back (tag lost)") && silent.contains("previous message or an empty one"), "\(silent)")
        // A read-back answered with bytes that are no message (102): what it holds is unknown, no guarantee.
        let malformed = text(.failure(NFCReaderError(.readerTransceiveErrorTagResponseError, message: "malformed NDEF message: record 1 runs past the end")))
        #expect(malformed.contains("cannot be read back") && !malformed.contains("never a corrupt one"), "\(malformed)")
        let garbage = text(.failure(NFCReaderError(.readerErrorUnsupportedFeature, message: "an NDEF TLV running past the tag")))
        #expect(garbage.contains("cannot be read back") && garbage.contains("running past the tag"), "\(garbage)")
        #expect(!garbage.contains("never a corrupt one"))
    }
}
