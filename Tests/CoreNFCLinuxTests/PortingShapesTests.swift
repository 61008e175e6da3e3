// Shapes published iOS reader code takes, compiled with a plain `import CoreNFCLinux` (no
// @testable): exhaustive switches with `@unknown default`, optional delegate methods implemented
// in an extension, NSError bridging, `#available` / `@available(iOS …)`, String(format:) hex.
import CoreNFCLinux
import Testing

@available(iOS 13.0, *)
final class ShapeDelegate: NSObject, NFCNDEFReaderSessionDelegate, NFCTagReaderSessionDelegate {
    private(set) var becameActive: [String] = []

    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: Error) {}
    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {}
    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: Error) {}
    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {}
}

// Optional methods in an extension of the conforming class, as many apps write them.
@available(iOS 13.0, *)
extension ShapeDelegate {
    func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) { becameActive.append("ndef") }
    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) { becameActive.append("tag") }
}

/// What a plugin tells its script side for each code.
func errorKind(_ error: Error) -> String {
    guard let readerError = error as? NFCReaderError else { return "other" }
    switch readerError.code {
    case .readerSessionInvalidationErrorUserCanceled: return "userCanceled"
    case .readerSessionInvalidationErrorFirstNDEFTagRead: return "firstRead"
    case .readerSessionInvalidationErrorSessionTimeout: return "timeout"
    case .readerSessionInvalidationErrorSystemIsBusy: return "busy"
    case .readerSessionInvalidationErrorSessionTerminatedUnexpectedly: return "terminated"
    case .readerTransceiveErrorTagConnectionLost, .readerTransceiveErrorTagNotConnected: return "lost"
    case .readerTransceiveErrorTagResponseError, .readerTransceiveErrorRetryExceeded, .readerTransceiveErrorPacketTooLong,
         .readerTransceiveErrorSessionInvalidated: return "transceive"
    case .ndefReaderSessionErrorTagNotWritable, .ndefReaderSessionErrorTagUpdateFailure, .ndefReaderSessionErrorTagSizeTooSmall,
         .ndefReaderSessionErrorZeroLengthMessage: return "ndef"
    case .readerErrorUnsupportedFeature, .readerErrorSecurityViolation, .readerErrorInvalidParameter,
         .readerErrorInvalidParameterLength, .readerErrorParameterOutOfBound, .readerErrorRadioDisabled,
         .readerErrorIneligible, .readerErrorAccessNotAccepted, .tagCommandConfigurationErrorInvalidParameters: return "reader"
    @unknown default: return "unknown"
    }
}

func formatName(_ format: NFCTypeNameFormat) -> String {
    switch format {
    case .empty: return "empty"
    case .nfcWellKnown: return "wellKnown"
    case .media: return "media"
    case .absoluteURI: return "absoluteURI"
    case .nfcExternal: return "external"
    case .unknown: return "unknown"
    case .unchanged: return "unchanged"
    @unknown default: return "?"
    }
}

func statusName(_ status: NFCNDEFStatus) -> String {
    switch status {
    case .notSupported: return "notSupported"
    case .readWrite: return "readWrite"
    case .readOnly: return "readOnly"
    @unknown default: return "?"
    }
}

func familyName(_ tag: NFCTag) -> String {
    switch tag {
    case .feliCa: return "feliCa"
    case let .iso7816(card): return "iso7816 " + card.identifier.map { String(format: "%02X", $0) }.joined()
    case .iso15693: return "iso15693"
    case let .miFare(mifare):
        switch mifare.mifareFamily {
        case .ultralight: return "ultralight"
        case .plus, .desfire, .unknown: return "mifare"
        @unknown default: return "?"
        }
    @unknown default: return "?"
    }
}

/// Plugin code keeps the last tag as `NFCTag?` and switches on it directly.
func storedTagKind(_ tag: NFCTag?) -> String {
    switch tag {
    case let .iso7816(card): return "iso7816 \(card.initialSelectedAID)"
    case let .miFare(mifare): return "miFare \(mifare.mifareFamily.rawValue)"
    case let .feliCa(felica): return "feliCa " + felica.currentSystemCode.map { String(format: "%02hhX", $0) }.joined()
    case let .iso15693(vicinity):
        return "iso15693 \(RequestFlag(rawValue: 0x22).contains(.address)) \(String(format: "%d", vicinity.icManufacturerCode))"
    default: return "none"
    }
}

/// One object serving both a tag session and a VAS session, each conformance in its own extension.
final class DualSessionDelegate: NSObject {
    private let lock = NSLock()
    private var log: [String] = []
    var events: [String] { lock.lock(); defer { lock.unlock() }; return log }
    func record(_ event: String) { lock.lock(); log.append(event); lock.unlock() }
}

extension DualSessionDelegate: NFCTagReaderSessionDelegate {
    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) { record("tag active") }
    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: Error) {
        record("tag ended \((error as NSError).code)")
    }
    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {}
}

extension DualSessionDelegate: NFCVASReaderSessionDelegate {
    func readerSessionDidBecomeActive(_ session: NFCVASReaderSession) { record("vas active") }
    func readerSession(_ session: NFCVASReaderSession, didInvalidateWithError error: Error) {
        record("vas ended \((error as! NFCReaderError).errorCode)")
    }
    func readerSession(_ session: NFCVASReaderSession, didReceive responses: [NFCVASResponse]) {}
}

@Suite("Core NFC parity: shapes published reader code takes, with a plain import")
struct PortingShapesTests {
    @Test("optional delegate methods written in an extension are the ones the protocols call")
    func optionalMethodsInExtension() {
        let delegate = ShapeDelegate()
        let ndef = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: true)
        let tag = NFCTagReaderSession(pollingOption: [.iso14443, .iso15693], delegate: delegate, queue: .main)
        (delegate as NFCNDEFReaderSessionDelegate).readerSessionDidBecomeActive(ndef)
        if let tag { (delegate as NFCTagReaderSessionDelegate).tagReaderSessionDidBecomeActive(tag) }
        #expect(delegate.becameActive == ["ndef", "tag"])
        #expect(NFCTagReaderSession(pollingOption: [], delegate: delegate) == nil)
    }

    @Test("every error code maps through an exhaustive switch; NSError bridging keeps domain and code")
    func errorSwitch() {
        #expect(errorKind(NFCReaderError(.readerSessionInvalidationErrorUserCanceled)) == "userCanceled")
        #expect(errorKind(NFCReaderError(NFCReaderError.readerSessionInvalidationErrorFirstNDEFTagRead)) == "firstRead")
        #expect(errorKind(NFCReaderError(.ndefReaderSessionErrorZeroLengthMessage)) == "ndef")
        #expect(errorKind(CocoaError(.fileNoSuchFile)) == "other")
        let bridged = NFCReaderError(.readerTransceiveErrorTagConnectionLost) as NSError
        #expect(bridged.domain == NFCErrorDomain && bridged.code == NFCReaderError.readerTransceiveErrorTagConnectionLost.rawValue)
        if #available(iOS 13.0, macOS 10.15, *) {
            #expect((NFCReaderError(.readerErrorUnsupportedFeature) as Error as? NFCReaderError)?.code == .readerErrorUnsupportedFeature)
        }
    }

    @Test("type name formats and NDEF statuses switch exhaustively with Apple's raw values")
    func formatAndStatus() {
        #expect((0...6).compactMap { NFCTypeNameFormat(rawValue: $0) }.map(formatName)
                == ["empty", "wellKnown", "media", "absoluteURI", "external", "unknown", "unchanged"])
        #expect((1...3).compactMap { NFCNDEFStatus(rawValue: $0) }.map(statusName) == ["notSupported", "readWrite", "readOnly"])
    }

    @Test("a FeliCa tag in an NFCTag switch with @unknown default")
    func tagSwitch() {
        #expect(familyName(.feliCa(MockFeliCaTag())) == "feliCa")
        #expect(familyName(.iso15693(MockISO15693Tag())) == "iso15693")
    }

    @Test("a stored NFCTag? switches with enum patterns; the global RequestFlag name works unqualified")
    func optionalTagSwitch() {
        #expect(storedTagKind(nil) == "none")
        #expect(storedTagKind(.feliCa(MockFeliCaTag())) == "feliCa 88B4")
        #expect(storedTagKind(.iso15693(MockISO15693Tag())) == "iso15693 true 4")
    }

    @Test("one delegate for a tag session and a VAS session: each session reaches its own methods")
    func dualDelegate() {
        let h = Harness()
        let delegate = DualSessionDelegate()
        let vas = NFCVASReaderSession(vasCommandConfigurations: [NFCVASCommandConfiguration(vasMode: .urlOnly, passTypeIdentifier: "pass.x", url: nil)],
                                      delegate: delegate, queue: h.delegateQueue, configuration: h.configuration, environment: h.environment)
        vas.begin()
        h.settle(vas)
        let tag = NFCTagReaderSession(pollingOption: .pace, delegate: delegate, queue: h.delegateQueue,
                                      configuration: h.configuration, environment: h.environment)
        tag?.begin()
        if let tag { h.settle(tag) }
        #expect(delegate.events == ["vas ended 1", "tag ended 1"])
    }
}
