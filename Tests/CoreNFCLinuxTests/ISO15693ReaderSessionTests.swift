@testable import CoreNFCLinux
import Foundation
import TagEmulation
import Testing
import TestSupport

/// A delegate of the iOS 11 session, written as such code is.
final class LegacyReaderDelegate: NSObject, NFCReaderSessionDelegate {
    let log = Locked<[String]>([])
    func readerSessionDidBecomeActive(_ session: NFCReaderSession) { log.withLock { $0.append("active") } }
    func readerSession(_ session: NFCReaderSession, didDetect tags: [__NFCTag]) { log.withLock { $0.append("tags(\(tags.count))") } }
    func readerSession(_ session: NFCReaderSession, didInvalidateWithError error: Error) {
        let queue = DispatchQueue.getSpecific(key: queueKey) ?? "?"
        log.withLock { $0.append("invalidated(\(code(error) ?? -1)) on \(queue)") }
    }
}

@Suite("NFCISO15693ReaderSession (iOS 11)")
struct ISO15693ReaderSessionTests {
    @Test("begin() polls; an ISO 15693 tag is handed to the delegate, other tags are not")
    func beginPollsForISO15693Tags() throws {
        let backend = VirtualReaderBackend(readerNames: ["Virtual 15693"], profile: .omnikey)
        let delegate = LegacyReaderDelegate()
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        configuration.batchWindow = .zero
        let session = NFCISO15693ReaderSession(delegate: delegate, queue: nil, configuration: configuration,
                                               environment: NFCReaderEnvironment(makeBackends: { [backend] },
                                                                                 makeNDEFOperations: { try $0.ndefOperations() }))
        #expect(NFCISO15693ReaderSession.readingAvailable)
        session.begin()
        backend.place(try VirtualType2Tag(product: .ntag213, uid: VirtualType2Tag.defaultUID, ndef: []), on: "Virtual 15693")
        backend.place(VirtualISO15693Tag.flipperSLIX2Dump(), on: "Virtual 15693")
        let deadline = Date().addingTimeInterval(10)
        while !delegate.log.current.contains("tags(1)"), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(delegate.log.current.filter { $0.hasPrefix("tags") } == ["tags(1)"])
        #expect((session.delegate as AnyObject?) === delegate)
        session.invalidate()
    }

    @Test("the iOS 11 command configurations keep their values; on a tag that is not a session's the legacy commands answer 1 asynchronously")
    func legacyCommands() throws {
        let custom = NFCISO15693CustomCommandConfiguration(manufacturerCode: 0x02, customCommandCode: 0xA0, requestParameters: nil,
                                                           maximumRetries: 3, retryInterval: 0.25)
        #expect(custom.requestParameters.isEmpty && custom.maximumRetries == 3 && custom.retryInterval == 0.25)
        let read = NFCISO15693ReadMultipleBlocksConfiguration(range: NSMakeRange(4, 8), chunkSize: 4)
        #expect(read.range.location == 4 && read.range.length == 8 && read.chunkSize == 4 && read.maximumRetries == 0)
        let base = NFCTagCommandConfiguration()
        base.maximumRetries = 5
        #expect((base.copy() as? NFCTagCommandConfiguration)?.maximumRetries == 5)

        let tag: any NFCISO15693Tag = MockISO15693Tag()
        let answers = CommandAnswers()
        let customDone = answers.handler("sendCustomCommand")
        tag.sendCustomCommand(commandConfiguration: custom) { data, error in
            #expect(data.isEmpty)
            customDone(error)
        }
        let readDone = answers.handler("readMultipleBlock")
        tag.readMultipleBlock(readConfiguration: read) { data, error in
            #expect(data.isEmpty)
            readDone(error)
        }
        let (codes, synchronous) = try #require(answers.wait())
        #expect(codes.count == 2 && codes.values.allSatisfy { $0 == 1 } && synchronous.isEmpty)
    }
}
