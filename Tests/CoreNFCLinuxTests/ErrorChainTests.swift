@testable import CoreNFCLinux
import Foundation
@testable import LibNFC
import NFCTags
@testable import NFCReaders
import PCSC
import ReaderCore
import TagEmulation
import Testing

/// The whole chain of docs/architecture.md "Errors", from a C library's code to the Core NFC code
/// an app sees: PCSCError / LibNFCError → TagError / ReaderError → NFCReaderError. The raw code
/// stays readable in the message where no case of its own names it.
@Suite("Error chain: C code → wrapper → seam → NFCReaderError")
struct ErrorChainTests {
    typealias Code = NFCReaderError.Code

    /// SCARD code, the Core NFC code of a read, of a write, and of a backend call on it.
    static let pcsc: [(PCSCError, read: Code, write: Code, backend: Code)] = [
        (.removedCard, .readerTransceiveErrorTagConnectionLost, .readerTransceiveErrorTagConnectionLost,
         .readerTransceiveErrorTagConnectionLost),
        (.readerUnavailable, .readerTransceiveErrorTagConnectionLost, .readerTransceiveErrorTagConnectionLost,
         .readerTransceiveErrorTagConnectionLost),
        (.sharingViolation, .readerSessionInvalidationErrorSystemIsBusy, .readerSessionInvalidationErrorSystemIsBusy,
         .readerSessionInvalidationErrorSystemIsBusy),
        (.noService, .readerTransceiveErrorTagConnectionLost, .readerTransceiveErrorTagConnectionLost,
         .readerErrorUnsupportedFeature),
        (.notTransacted, .readerTransceiveErrorTagResponseError, .ndefReaderSessionErrorTagUpdateFailure,
         .readerTransceiveErrorTagResponseError),
    ]

    @Test("PC/SC: the NFCReaderError code of each SCARD code, read, write and backend call",
          arguments: 0 ..< pcsc.count)
    func pcscToCoreNFC(index: Int) {
        let (scard, read, write, backend) = Self.pcsc[index]
        #expect(NFCReaderError(scard.tagError, during: .read).code == read)
        #expect(NFCReaderError(scard.tagError, during: .write).code == write)
        #expect(NFCReaderError(scard.readerError(reader: "R")).code == backend)
    }

    @Test("a SCARD code without a case keeps its value up to the app's message")
    func pcscRawCodeInTheMessage() {
        let error = NFCReaderError(PCSCError.notTransacted.tagError, during: .read)
        #expect(error.message.contains("(code \(0x8010_0016))"))
        let backend = NFCReaderError(PCSCError.timeout.readerError(reader: "R"))
        #expect(backend.message.contains("(code \(0x8010_000A))"))
    }

    @Test("libnfc: a device failure is a lost connection (100), another code a response error (102) naming it")
    func libnfcToCoreNFC() {
        #expect(NFCReaderError(TagError(libnfc: .noSuchDevice), during: .read).code == .readerTransceiveErrorTagConnectionLost)
        #expect(NFCReaderError(TagError(libnfc: .targetReleased), during: .write).code == .readerTransceiveErrorTagConnectionLost)
        let chip = NFCReaderError(TagError(libnfc: .chip), during: .read)
        #expect(chip.code == .readerTransceiveErrorTagResponseError)
        #expect(chip.message == "Device's Internal Chip Error (NFC_ECHIP) (code -90)")
    }

    @Test("the virtual backend: a reader held exclusively → ReaderError.readerBusy → 203")
    func busyVirtualReader() throws {
        // holds the reader exclusively; the engine turns it into NFCReaderError 203 without a cast.
        let backend = VirtualReaderBackend(readerNames: ["Virtual A"], profile: .acr122u)
        let tag = try VirtualTagCatalog.make(preset: "ntag215")
        let detected = try #require(backend.place(tag, on: "Virtual A"))
        let holder = try backend.connect(to: detected, exclusive: true)
        defer { holder.disconnect() }
        let refused = Result { () throws(ReaderError) -> Bool in _ = try backend.connect(to: detected, exclusive: true); return true }
        #expect(refused == .failure(.readerBusy("Virtual A")))
        guard case let .failure(error) = refused else { return }
        #expect(NFCReaderError(error).code == .readerSessionInvalidationErrorSystemIsBusy)
    }
}
