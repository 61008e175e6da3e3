@testable import CoreNFCLinux
import Foundation
import Synchronization
import TestSupport

/// What a delegate saw, in order, and on which queue.
enum Callback {
    case active
    case messages([[UInt8]])
    case tags(Int)
    case invalidated(NFCReaderError)
}

final class CallbackLog: Sendable {
    private let entries = Mutex<[(Callback, String?)]>([])

    func append(_ callback: Callback) {
        let queue = DispatchQueue.getSpecific(key: queueKey)
        entries.withLock { $0.append((callback, queue)) }
    }

    var all: [Callback] { entries.withLock { $0.map(\.0) } }
    var queues: [String?] { entries.withLock { $0.map(\.1) } }

    var invalidations: [NFCReaderError] {
        all.compactMap { if case let .invalidated(e) = $0 { return e } else { return nil } }
    }

    var messageBatches: [[[UInt8]]] {
        all.compactMap { if case let .messages(m) = $0 { return m } else { return nil } }
    }

    var summary: [String] {
        all.map {
            switch $0 {
            case .active: return "active"
            case let .messages(m): return "messages(\(m.map(\.hexString).joined(separator: ",")))"
            case let .tags(n): return "tags(\(n))"
            case let .invalidated(e): return "invalidated(\(e.code.rawValue))"
            }
        }
    }
}

/// A read-only delegate: does not implement `readerSession(_:didDetect:)`.
final class ReadOnlyDelegate: NFCNDEFReaderSessionDelegate {
    let log = CallbackLog()

    func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) { log.append(.active) }

    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
        log.append(.messages(messages.map(payload)))
    }

    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        log.append(.invalidated(error as! NFCReaderError))
    }
}

/// A read-write delegate: implements `readerSession(_:didDetect:)` and keeps the tags.
final class ReadWriteDelegate: NFCNDEFReaderSessionDelegate {
    let log = CallbackLog()
    let detected = Locked<[[any NFCNDEFTag]]>([])
    var onTags: ((NFCNDEFReaderSession, [any NFCNDEFTag]) -> Void)?

    func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) { log.append(.active) }

    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
        log.append(.messages(messages.map(payload)))
    }

    func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [any NFCNDEFTag]) {
        log.append(.tags(tags.count))
        detected.withLock { $0.append(tags) }
        onTags?(session, tags)
    }

    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        log.append(.invalidated(error as! NFCReaderError))
    }

    var lastTags: [any NFCNDEFTag] { detected.current.last ?? [] }
}

final class TagDelegate: NFCTagReaderSessionDelegate {
    let log = CallbackLog()
    let detected = Locked<[[NFCTag]]>([])

    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) { log.append(.active) }

    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
        log.append(.tags(tags.count))
        detected.withLock { $0.append(tags) }
    }

    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error) {
        log.append(.invalidated(error as! NFCReaderError))
    }

    var lastTags: [NFCTag] { detected.current.last ?? [] }
}

/// Waits for a completion handler (bounded, so a bug fails instead of hanging).
// @unchecked: `Value` is often a handler's NFCNDEFMessage, not Sendable (as in Apple's Core NFC); it is kept in lock boxes.
final class Completion<Value>: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let value = Locked<Value?>(nil)
    private let queueName = Locked<String?>(nil)

    func fulfil(_ v: Value) {
        value.withLock { $0 = v }
        queueName.withLock { $0 = DispatchQueue.getSpecific(key: queueKey) }
        semaphore.signal()
    }

    func wait() -> Value? {
        guard semaphore.wait(timeout: .now() + 5) == .success else { return nil }
        return value.current
    }

    var queue: String? { queueName.current }
}
