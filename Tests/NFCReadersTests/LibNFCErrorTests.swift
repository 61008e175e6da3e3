@testable import LibNFC
import NFCTags
import Testing
@testable import NFCReaders

@Suite("LibNFCError and its translation at the backend boundary")
struct LibNFCErrorTests {
    @Test(arguments: [
        (LibNFCError.io, -1, "NFC_EIO", "Input / Output Error"),
        (.invalidArgument, -2, "NFC_EINVARG", "Invalid argument(s)"),
        (.deviceNotSupported, -3, "NFC_EDEVNOTSUPP", "Not Supported by Device"),
        (.noSuchDevice, -4, "NFC_ENOTSUCHDEV", "No Such Device"),
        (.overflow, -5, "NFC_EOVFLOW", "Buffer Overflow"),
        (.timeout, -6, "NFC_ETIMEOUT", "Timeout"),
        (.operationAborted, -7, "NFC_EOPABORTED", "Operation Aborted"),
        (.notImplemented, -8, "NFC_ENOTIMPL", "Not (yet) Implemented"),
        (.targetReleased, -10, "NFC_ETGRELEASED", "Target Released"),
        (.rfTransmission, -20, "NFC_ERFTRANS", "RF Transmission Error"),
        (.mifareAuthFailed, -30, "NFC_EMFCAUTHFAIL", "Mifare Authentication Failed"),
        (.chip, -90, "NFC_ECHIP", "Device's Internal Chip Error"),
    ])
    func namedCodes(error: LibNFCError, raw: Int, name: String, message: String) {
        #expect(error.rawValue == raw)
        #expect(LibNFCError(rawValue: raw) == error)
        #expect(error.name == name)
        #expect(error.message == message)
        #expect(error.description == "\(message) (\(name))")
    }

    @Test func unknownCodesStayVisible() {
        let odd = LibNFCError(rawValue: -99)
        #expect(odd.name == nil)
        #expect(odd.rawValue == -99)
        #expect(odd.description == "libnfc error -99")
    }

    @Test func patternMatchingInCatch() {
        func fail() throws { throw LibNFCError(rawValue: -10) }
        do {
            try fail()
            Issue.record("no error")
        } catch LibNFCError.targetReleased {
            // expected
        } catch {
            Issue.record("wrong error \(error)")
        }
    }

    @Test func boundaryTranslation() {
        #expect(TagError(libnfc: .targetReleased) == .tagLost)
        #expect(TagError(libnfc: .timeout) == .tagLost)
        #expect(TagError(libnfc: .io) == .readerGone)
        #expect(TagError(libnfc: .noSuchDevice) == .readerGone)
        #expect(TagError(libnfc: .chip) == .transport(code: -90, message: "Device's Internal Chip Error (NFC_ECHIP)"))
        #expect(TagError(libnfc: LibNFCError(rawValue: -99)) == .transport(code: -99, message: "libnfc error -99"))
    }

    @Test func timeoutArgumentInMilliseconds() {
        #expect(LibNFCDevice.libnfcMilliseconds(nil) == 0)            // libnfc: 0 = no timeout
        #expect(LibNFCDevice.libnfcMilliseconds(.milliseconds(300)) == 300)
        #expect(LibNFCDevice.libnfcMilliseconds(.microseconds(10)) == 1) // never 0 by rounding
        #expect(LibNFCDevice.libnfcMilliseconds(.seconds(1_000_000_000)) == Int32.max)
        #expect(LibNFCDevice.libnfcMilliseconds(.seconds(Int64.max)) == Int32.max)  // no overflow trap
    }
}
