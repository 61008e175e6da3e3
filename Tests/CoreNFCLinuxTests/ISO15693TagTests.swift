@testable import CoreNFCLinux
import Foundation
import NDEF
import NFCTags
import ReaderCore
import TagEmulation
import Testing
import TestSupport

/// `NFCISO15693Tag` over the virtual reader backend (an OMNIKEY-like reader with the transparent
/// exchange) and the virtual ICODE SLIX2: Apple's commands, results and error codes.
@Suite("NFCISO15693Tag through a virtual ISO 15693 reader")
struct ISO15693TagTests {
    static func environment(_ backend: VirtualReaderBackend) -> NFCReaderEnvironment {
        NFCReaderEnvironment(makeBackends: { [backend] }, makeNDEFOperations: { try $0.ndefOperations() })
    }

    static func slix2() -> VirtualISO15693Tag {
        .formatted(.icodeSLIX2, uid: VirtualISO15693Tag.exampleUID(.icodeSLIX2),
                   message: [0xD1, 0x01, 0x06, 0x55, 0x04, 0x61, 0x2E, 0x63, 0x6F, 0x6D])
    }

    /// A tag session polling `.iso15693` with the tag on the reader, connected.
    static func connectedTag(_ backend: VirtualReaderBackend, _ virtual: VirtualISO15693Tag,
                             polling: NFCTagReaderSession.PollingOption = .iso15693) throws -> (NFCTagReaderSession, any NFCISO15693Tag) {
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        configuration.batchWindow = .zero
        let delegate = TagCollector()
        let session = try #require(NFCTagReaderSession(pollingOption: polling, delegate: delegate, queue: nil,
                                                        configuration: configuration, environment: environment(backend)))
        return (session, try connect(session, delegate) { backend.place(virtual, on: "Virtual 15693") })
    }

    /// Begins `session`, puts the tag on the reader (`place`), waits for it and connects to it.
    static func connect(_ session: NFCTagReaderSession, _ delegate: TagCollector, place: () -> Void) throws -> any NFCISO15693Tag {
        session.begin()
        place()
        #expect(delegate.detected.wait(timeout: .now() + 10) == .success)
        guard case let .iso15693(tag)? = delegate.tags.withLock({ $0.first }) else {
            throw NFCReaderError(.readerErrorUnsupportedFeature, message: "no ISO 15693 tag")
        }
        let connected = DispatchSemaphore(value: 0)
        session.connect(to: .iso15693(tag)) { error in #expect(error == nil); connected.signal() }
        #expect(connected.wait(timeout: .now() + 10) == .success)
        return tag
    }

    @Test("read, write, lock, system info and a tag's error code, as Core NFC reports them")
    func commands() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual 15693"], profile: .omnikey)
        let virtual = Self.slix2()
        let (session, tag) = try Self.connectedTag(backend, virtual)
        defer { session.invalidate() }
        #expect(tag.identifier == Data(virtual.uid))
        #expect(tag.icManufacturerCode == 0x04 && tag.icSerialNumber.count == 6)

        let info = try await tag.systemInfo(requestFlags: .highDataRate)
        #expect(info.blockSize == 4 && info.totalBlocks == 80 && info.icReference == 1 && info.uniqueIdentifier == Data(virtual.uid))
        #expect(try await tag.readSingleBlock(requestFlags: .highDataRate, blockNumber: 0) == Data([0xE1, 0x40, 0x28, 0x01]))
        let blocks = try await tag.readMultipleBlocks(requestFlags: .highDataRate, blockRange: NSRange(location: 1, length: 3))
        #expect(blocks.count == 3 && blocks[0] == Data([0x03, 0x0A, 0xD1, 0x01]))
        try await tag.writeSingleBlock(requestFlags: .highDataRate, blockNumber: 70, dataBlock: Data([1, 2, 3, 4]))
        #expect(Array(virtual.memory[280 ..< 284]) == [1, 2, 3, 4])
        try await tag.lockBlock(requestFlags: .highDataRate, blockNumber: 70)
        #expect(virtual.lockedBlocks == [70])

        // The tag refuses the write to a locked block with ISO 15693 error 12: NFCError 102 + the key.
        do {
            try await tag.writeSingleBlock(requestFlags: .highDataRate, blockNumber: 70, dataBlock: Data([9, 9, 9, 9]))
            Issue.record("a locked block was written")
        } catch let error as NFCReaderError {
            #expect(error.code == .readerTransceiveErrorTagResponseError)
            #expect(error.userInfo[NFCISO15693TagResponseErrorKey] as? Int == 0x12)
        }
        // Block 80 does not exist: error 10, through the iOS 14 result handler.
        let refused = DispatchSemaphore(value: 0)
        let code = Locked<Int?>(nil)
        tag.readSingleBlock(requestFlags: .highDataRate, blockNumber: 80) { (result: Result<Data, any Error>) in
            if case let .failure(error as NFCReaderError) = result {
                code.withLock { $0 = error.userInfo[NFCISO15693TagResponseErrorKey] as? Int }
            }
            refused.signal()
        }
        #expect(refused.wait(timeout: .now() + 10) == .success)
        #expect(code.withLock { $0 } == 0x10)
        // The deprecated five-value getSystemInfo.
        let legacy = DispatchSemaphore(value: 0)
        let values = Locked<[Int]>([])
        tag.getSystemInfo(requestFlags: .highDataRate) { dsfid, afi, size, count, ic, error in
            #expect(error == nil)
            values.withLock { $0 = [dsfid, afi, size, count, ic] }
            legacy.signal()
        }
        #expect(legacy.wait(timeout: .now() + 10) == .success)
        #expect(values.withLock { $0 } == [0, 0, 4, 80, 1])
        // sendRequest leaves the error flag to the caller.
        let (flags, data) = try await tag.sendRequest(requestFlags: 0x22, commandCode: 0x20, data: Data([0x50]))
        #expect(flags.contains(.error) && data == Data([0x10]))
    }

    @Test("a command the tag does not know answers 102 with code 01; the NDEF operations read the tag")
    func customAndNDEF() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual 15693"], profile: .omnikey)
        let virtual = Self.slix2()
        let (session, tag) = try Self.connectedTag(backend, virtual, polling: [.iso14443, .iso15693])
        defer { session.invalidate() }
        do {
            _ = try await tag.customCommand(requestFlags: .highDataRate, customCommandCode: 0xA5, customRequestParameters: Data())
            Issue.record("the custom command was answered")
        } catch let error as NFCReaderError {
            #expect(error.code == .readerTransceiveErrorTagResponseError)
            #expect(error.userInfo[NFCISO15693TagResponseErrorKey] as? Int == 0x01)
        }
        let message = try await tag.readNDEF()
        #expect(message.records.first?.wellKnownTypeURIPayload()?.absoluteString == "https://a.com")
    }

    @Test("an NDEF reader session reads a Type 5 tag")
    func ndefSession() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual 15693"], profile: .omnikey)
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        configuration.collectTagDetails = true
        let session = NFCNDEFReaderSession(configuration: configuration, environment: Self.environment(backend))
        var events = session.events.makeAsyncIterator()
        backend.place(Self.slix2(), on: "Virtual 15693")
        var report: NFCTagReport?
        while report == nil, let event = try await events.next() {
            if case let .tagReport(r) = event { report = r }
        }
        session.invalidate()
        let r = try #require(report)
        #expect(r.error == nil)
        #expect(r.tag.technology == .type5)
        #expect(r.message?.records.first?.wellKnownTypeURIPayload()?.absoluteString == "https://a.com")
        #expect(r.details?.product == "ICODE SLIX2")
        #expect(r.details?.capacity == 312)
    }
}
