import CPCSCLite
@testable import LibNFC
import NFCTags
@testable import NFCReaders
@testable import PCSC
import ReaderCore
import Testing

/// The typed contracts of the seams (docs/architecture.md "Errors"): a C-level code arrives as
/// the one error type of each seam, the right case, the raw code kept. The `Result`s below name
/// their failure type, so a seam that went back to untyped `throws` stops compiling here.
@Suite("Typed errors at the PC/SC and libnfc seams")
struct TypedErrorSeamTests {
    /// A pcsc-lite code (the C macro itself, so the statics are checked against pcsc-lite too),
    /// what an exchange makes of it and what a backend call makes of it.
    static let pcscRows: [(code: LONG, named: PCSCError, tag: TagError?, reader: ReaderError?)] = [
        (SCARD_W_REMOVED_CARD, .removedCard, .tagLost, .tagGone),
        (SCARD_E_NO_SMARTCARD, .noSmartcard, .tagLost, .tagGone),
        (SCARD_W_RESET_CARD, .resetCard, .tagLost, .tagGone),
        (SCARD_E_READER_UNAVAILABLE, .readerUnavailable, .readerGone, .readerGone("R")),
        (SCARD_E_UNKNOWN_READER, .unknownReader, .readerGone, .readerGone("R")),
        (SCARD_E_SHARING_VIOLATION, .sharingViolation, .readerBusy, .readerBusy("R")),
        (SCARD_E_NO_SERVICE, .noService, .readerGone, .serviceUnavailable(hint: PCSCBackend.serviceHint)),
        (SCARD_E_SERVICE_STOPPED, .serviceStopped, .readerGone, .serviceUnavailable(hint: PCSCBackend.serviceHint)),
        (SCARD_F_COMM_ERROR, .commError, .readerGone, .serviceUnavailable(hint: PCSCBackend.serviceHint)),
        // Codes with no case of their own: `.transport` / `.other`, the raw code kept (nil here).
        (SCARD_E_NOT_TRANSACTED, .notTransacted, nil, nil),
        (SCARD_E_TIMEOUT, .timeout, nil, nil),
        (SCARD_W_UNRESPONSIVE_CARD, .unresponsiveCard, nil, nil),
    ]

    @Test("SCARD_* → PCSCError (wrapper) → TagError (exchange) / ReaderError (backend), raw code kept",
          arguments: 0 ..< pcscRows.count)
    func pcscChain(index: Int) {
        let row = Self.pcscRows[index]
        // The wrapper: every pcsc-lite call goes through `check`, which throws PCSCError only.
        let wrapped = Result { () throws(PCSCError) in try check(row.code) }
        guard case let .failure(pcsc) = wrapped else { Issue.record("\(row.code) did not throw"); return }
        #expect(pcsc == row.named)
        #expect(pcsc.rawValue == Int(row.code))

        // The exchange seam (PCSCTransceiver.transceive, the Type 2 link's recover).
        #expect(pcsc.tagError == row.tag ?? .transport(code: Int(row.code), message: pcsc.description))

        // The backend seam (listReaders, snapshot, connect): mappingReaderErrors is the one place.
        let backend = Result { () throws(ReaderError) in
            try mappingReaderErrors(reader: "R") { () throws(PCSCError) -> Bool in try check(row.code); return true }
        }
        #expect(backend == .failure(row.reader ?? .other(code: Int(row.code), message: pcsc.description)))
    }

    @Test("SCARD_S_SUCCESS passes every seam")
    func success() {
        #expect(throws: Never.self) { try check(LONG(SCARD_S_SUCCESS)) }
        let value = Result { () throws(ReaderError) in try mappingReaderErrors { () throws(PCSCError) in 7 } }
        #expect(value == .success(7))
    }

    @Test("an unknown SCARD code survives both seams with its value")
    func unknownPCSCCode() {
        let odd = PCSCError(rawValue: 0x8010_00FE)
        #expect(odd.tagError == .transport(code: 0x8010_00FE, message: odd.description))
        #expect(odd.readerError(reader: "R") == .other(code: 0x8010_00FE, message: odd.description))
        #expect(odd.description.hasSuffix("(0x801000FE)"))
    }

    // MARK: libnfc, through the real library: a device that cannot be opened

    /// A pn532_uart device on a path that does not exist: `nfc_open` returns NULL, the wrapper
    /// throws `LibNFCError.noSuchDevice` (NFC_ENOTSUCHDEV, -4).
    static let missing = "pn532_uart:/nonexistent/nfctap-typed-errors"

    func backend() -> LibNFCBackend {
        LibNFCBackend(devices: [Self.missing], environment: [:], configPath: "/nonexistent/libnfc.conf")
    }

    @Test("nfc_open failing → LibNFCError.noSuchDevice from the wrapper")
    func libnfcWrapper() throws {
        let context = try LibNFCContext()
        let opened = Result { () throws(LibNFCError) in try context.open(Self.missing) }
        guard case let .failure(error) = opened else { Issue.record("the missing device opened"); return }
        #expect(error == .noSuchDevice)
        #expect(error.rawValue == -4)
    }

    @Test("a device that cannot be opened: the backend throws ReaderError.readerGone, lists no reader")
    func libnfcBackend() {
        let backend = backend()
        let name = LibNFCDeviceList.readerName(Self.missing)
        #expect(Result { () throws(ReaderError) in try backend.listReaders() } == .success([]))
        let reader = ReaderInfo(name: name, backend: .libnfc)
        let detect = Result { () throws(ReaderError) in try backend.detectTag(on: reader) }
        #expect(detect == .failure(.readerGone(name)))
        let tag = DetectedTag(reader: reader, technology: .type4, uid: [1, 2, 3, 4], atr: [], presence: 1)
        let connect = Result { () throws(ReaderError) -> Bool in _ = try backend.connect(to: tag, exclusive: false); return true }
        #expect(connect == .failure(.readerGone(name)))
        backend.close()
    }

    @Test("the libnfc transceiver: the device failure arrives as TagError.readerGone")
    func libnfcTransceiver() {
        let backend = backend()
        let exchanger = LibNFCExchanger(slot: backend.slot(for: Self.missing),
                                        target: LibNFCTarget(atqa: [0x00, 0x44], sak: 0x20, uid: [1, 2, 3, 4]),
                                        timeout: .milliseconds(100))
        let apdu = Result { () throws(TagError) in try LibNFCAPDUChannel(exchanger).transceive([0x00, 0xA4, 0x04, 0x00]) }
        #expect(apdu == .failure(.readerGone))
        let page = Result { () throws(TagError) in try LibNFCType2Link(exchanger).read(page: 3) }
        #expect(page == .failure(.readerGone))
        backend.close()
    }

    @Test("a libnfc code without a case of its own reaches the link as .transport with its value")
    func libnfcRawCodeKept() {
        let slot = LibNFCReaderSlot(connstring: Self.missing, context: { () throws(LibNFCError) in
            throw LibNFCError(rawValue: -99)
        })
        let exchanger = LibNFCExchanger(slot: slot, target: LibNFCTarget(atqa: [0x00, 0x44], sak: 0x00, uid: [1, 2, 3, 4, 5, 6, 7]),
                                        timeout: .milliseconds(100))
        let read = Result { () throws(TagError) in try LibNFCType2Link(exchanger).read(page: 0) }
        #expect(read == .failure(.transport(code: -99, message: "libnfc error -99")))
        let version = Result { () throws(TagError) in try LibNFCType2Link(exchanger).getVersion() }
        #expect(version == .failure(.unsupported("GET_VERSION (libnfc error -99)")))
    }

    @Test("a raw frame's CRC_A is checked apart from the exchange: LibNFCRawFrameError")
    func rawFrameCRC() {
        let body: [UInt8] = [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03]
        let answer = LibNFCDevice.appendingCRCA(body)
        #expect(Result { () throws(LibNFCRawFrameError) in try LibNFCDevice.removingCRCA(answer) } == .success(body))
        var damaged = answer
        damaged[damaged.count - 1] ^= 0xFF
        #expect(Result { () throws(LibNFCRawFrameError) in try LibNFCDevice.removingCRCA(damaged) } == .failure(.badCRC(damaged)))
        #expect(Result { () throws(LibNFCRawFrameError) in try LibNFCDevice.removingCRCA([0x0A]) } == .failure(.tooShort([0x0A])))
    }
}
