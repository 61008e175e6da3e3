@testable import CoreNFCLinux
import Foundation
import NFCTags
import ReaderCore
import Testing

@Suite("NFCReaderError")
struct NFCReaderErrorTests {
    @Test("every code has Apple's raw value")
    func rawValues() {
        let table: [(NFCReaderError.Code, Int)] = [
            (.readerErrorUnsupportedFeature, 1), (.readerErrorSecurityViolation, 2), (.readerErrorInvalidParameter, 3),
            (.readerErrorInvalidParameterLength, 4), (.readerErrorParameterOutOfBound, 5), (.readerErrorRadioDisabled, 6),
            (.readerErrorIneligible, 7), (.readerErrorAccessNotAccepted, 8),
            (.readerTransceiveErrorTagConnectionLost, 100), (.readerTransceiveErrorRetryExceeded, 101),
            (.readerTransceiveErrorTagResponseError, 102), (.readerTransceiveErrorSessionInvalidated, 103),
            (.readerTransceiveErrorTagNotConnected, 104), (.readerTransceiveErrorPacketTooLong, 105),
            (.readerSessionInvalidationErrorUserCanceled, 200), (.readerSessionInvalidationErrorSessionTimeout, 201),
            (.readerSessionInvalidationErrorSessionTerminatedUnexpectedly, 202),
            (.readerSessionInvalidationErrorSystemIsBusy, 203), (.readerSessionInvalidationErrorFirstNDEFTagRead, 204),
            (.tagCommandConfigurationErrorInvalidParameters, 300), (.ndefReaderSessionErrorTagNotWritable, 400),
            (.ndefReaderSessionErrorTagUpdateFailure, 401), (.ndefReaderSessionErrorTagSizeTooSmall, 402),
            (.ndefReaderSessionErrorZeroLengthMessage, 403),
        ]
        #expect(table.count == NFCReaderError.Code.allCases.count)
        for (code, raw) in table {
            #expect(code.rawValue == raw)
            #expect(NFCReaderError.Code(rawValue: raw) == code)
        }
    }

    @Test("NSError-style access: domain, code, description; catch by code")
    func bridging() {
        let error = NFCReaderError(.readerSessionInvalidationErrorSessionTimeout)
        #expect(NFCErrorDomain == "NFCError")
        #expect(NFCReaderError.errorDomain == "NFCError")
        #expect(error.errorCode == 201)
        #expect(error.localizedDescription == "session timeout")
        #expect((error as any Error).localizedDescription == "session timeout")
        #expect(NFCReaderError.readerSessionInvalidationErrorSessionTimeout == .readerSessionInvalidationErrorSessionTimeout)
        let thrown: any Error = error
        switch thrown {
        case NFCReaderError.readerSessionInvalidationErrorUserCanceled: Issue.record("wrong code matched")
        case NFCReaderError.readerSessionInvalidationErrorSessionTimeout: break
        default: Issue.record("code did not match")
        }
    }

    @Test("tag-layer errors map onto Core NFC codes", arguments: [
        (TagError.tagLost, TagOperationKind.read, 100),
        (.timeout, .read, 100),
        (.readerGone, .command, 100),
        (.readerBusy, .read, 203),
        (.readOnly, .write, 400),
        (.messageTooLarge(size: 10, capacity: 4), .write, 402),
        (.status(sw1: 0x6A, sw2: 0x82), .read, 102),
        (.status(sw1: 0x6A, sw2: 0x82), .write, 401),
        (.nak(0x00), .write, 401),
        (.malformedReply("short"), .command, 102),
        (.unsupported("x"), .command, 1),
        (.notNDEFFormatted("no CC"), .read, 1),
    ])
    func tagErrorMapping(_ error: TagError, _ kind: TagOperationKind, _ expected: Int) {
        let mapped = NFCReaderError(error, during: kind)
        #expect(mapped.code.rawValue == expected)
        #expect(mapped.message == error.description)
    }

    @Test("reader-level errors map onto Core NFC codes")
    func readerErrorMapping() {
        #expect(NFCReaderError(ReaderError.readerBusy("R")).code == .readerSessionInvalidationErrorSystemIsBusy)
        #expect(NFCReaderError(ReaderError.tagGone).code == .readerTransceiveErrorTagConnectionLost)
        #expect(NFCReaderError(ReaderError.serviceUnavailable(hint: "start pcscd")).code == .readerErrorUnsupportedFeature)
        #expect(NFCReaderError(ReaderError.serviceUnavailable(hint: "start pcscd")).message == "start pcscd")
    }
}
