@testable import CoreNFCLinux
import Foundation
import Testing
import TestSupport

/// A VAS delegate as wallet-pass code writes one.
final class VASDelegate: NSObject, NFCVASReaderSessionDelegate {
    let log = Locked<[String]>([])
    func readerSessionDidBecomeActive(_ session: NFCVASReaderSession) { log.withLock { $0.append("active") } }
    func readerSession(_ session: NFCVASReaderSession, didInvalidateWithError error: Error) {
        let queue = DispatchQueue.getSpecific(key: queueKey) ?? "?"
        log.withLock { $0.append("invalidated(\(code(error) ?? -1)) on \(queue)") }
    }
    func readerSession(_ session: NFCVASReaderSession, didReceive responses: [NFCVASResponse]) {
        log.withLock { $0.append("responses(\(responses.count))") }
    }
}

@Suite("NFCVASReaderSession (declared: no Linux reader offers Apple VAS)")
struct VASReaderSessionTests {
    @Test("begin() ends the session with 1 on the delegate queue, never becomes active, touches no reader")
    func beginEndsWithUnsupported() {
        let h = Harness()
        let delegate = VASDelegate()
        let configuration = NFCVASCommandConfiguration(vasMode: .normal, passTypeIdentifier: "pass.com.example.loyalty",
                                                       url: URL(string: "https://example.com/vas"))
        let session = NFCVASReaderSession(vasCommandConfigurations: [configuration], delegate: delegate, queue: h.delegateQueue,
                                          configuration: h.configuration, environment: h.environment)
        session.alertMessage = "Hold near the terminal."
        session.begin()
        h.settle(session)
        #expect(delegate.log.current == ["invalidated(1) on test.delegate"])
        #expect(!session.isReady)
        #expect(h.backend.connects.isEmpty && !h.backend.isMonitoring)
        #expect(session.vasCommandConfigurations.first?.passTypeIdentifier == "pass.com.example.loyalty")
        #expect((session.delegate as AnyObject?) === delegate)
    }

    @Test("readingAvailable is false whatever readers exist; Apple's raw values for modes and status words")
    func availabilityAndRawValues() {
        #expect(NFCVASReaderSession.readingAvailable == false)
        #expect(NFCVASCommandConfiguration.Mode.urlOnly.rawValue == 0 && NFCVASCommandConfiguration.Mode.normal.rawValue == 1)
        let codes: [NFCVASResponse.ErrorCode] = [.success, .dataNotFound, .dataNotActivated, .wrongParameters, .wrongLCField,
                                                 .userIntervention, .incorrectData, .unsupportedApplicationVersion]
        #expect(codes.map(\.rawValue) == [0x9000, 0x6A83, 0x6287, 0x6B00, 0x6700, 0x6984, 0x6A80, 0x6340])
        let original = NFCVASCommandConfiguration(vasMode: .urlOnly, passTypeIdentifier: "pass.a", url: nil)
        let copy = original.copy() as? NFCVASCommandConfiguration
        copy?.passTypeIdentifier = "pass.b"
        #expect(original.passTypeIdentifier == "pass.a" && copy?.mode == .urlOnly && copy?.url == nil)
        let response = NFCVASResponse(status: .success, vasData: Data([1]), mobileToken: Data([2, 3]))
        #expect(response.status == .success && response.mobileToken.count == 2)
    }
}
