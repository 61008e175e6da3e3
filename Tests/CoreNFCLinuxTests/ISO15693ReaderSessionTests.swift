@testable import CoreNFCLinux
import Foundation
import Testing

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

@Suite("NFCISO15693ReaderSession (iOS 11, declared: Linux readers do not poll ISO 15693)")
struct ISO15693ReaderSessionTests {
    @Test("begin() ends the session with 1 on the delegate queue; no reader is opened; restartPolling does nothing")
    func beginEndsWithUnsupported() {
        let h = Harness()
        let delegate = LegacyReaderDelegate()
        let session = NFCISO15693ReaderSession(delegate: delegate, queue: h.delegateQueue, configuration: h.configuration,
                                               environment: h.environment)
        session.alertMessage = "Hold the tag near the reader."
        session.begin()
        session.restartPolling()
        h.settle(session)
        #expect(delegate.log.current == ["invalidated(1) on test.delegate"])
        #expect(!session.isReady && NFCISO15693ReaderSession.readingAvailable == false)
        #expect(h.backend.connects.isEmpty && !h.backend.isMonitoring)
        #expect((session.delegate as AnyObject?) === delegate)
    }

    @Test("the iOS 11 command configurations keep their values; the legacy tag commands answer 1 asynchronously")
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
