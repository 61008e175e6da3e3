import Foundation
import NFCTags
import ReaderCore
import Synchronization

/// A scripted reader stack: readers come and go, cards are placed and removed, each change
/// is reported to the monitoring handler at once, on the calling thread. A change and its report
/// are one step (`delivery`), as is a monitor's start with its initial report: a card placed while
/// a session starts is reported after the readers, never between them.
final class FakeBackend: ReaderBackend, Sendable {
    let kind: ReaderBackendKind = .virtual

    private struct State {
        var readers: [ReaderInfo]
        var onReader: [String: (tag: DetectedTag, card: FakeCard)] = [:]
        var handler: (@Sendable (ReaderEvent) -> Void)?
        var presenceCounter: UInt64 = 0
        var listError: ReaderError?
        var busyReaders: Set<String> = []
        var connects: [(uid: [UInt8], exclusive: Bool)] = []
        var disconnects = 0
        var monitorsStopped = 0
        var signals: [ReaderFeedback] = []
    }
    private let state: Mutex<State>
    private let delivery = Mutex(())

    /// Thrown by `listReaders()` while set.
    var listError: ReaderError? {
        get { state.withLock { $0.listError } }
        set { state.withLock { $0.listError = newValue } }
    }
    /// Readers held by "another process".
    var busyReaders: Set<String> {
        get { state.withLock { $0.busyReaders } }
        set { state.withLock { $0.busyReaders = newValue } }
    }
    var connects: [(uid: [UInt8], exclusive: Bool)] { state.withLock { $0.connects } }
    var disconnects: Int { state.withLock { $0.disconnects } }
    var monitorsStopped: Int { state.withLock { $0.monitorsStopped } }
    var signals: [ReaderFeedback] { state.withLock { $0.signals } }

    init(readers: [String]) {
        state = Mutex(State(readers: readers.map { ReaderInfo(name: $0, backend: .virtual) }))
    }

    func listReaders() throws(ReaderError) -> [ReaderInfo] {
        try state.withLock { state throws(ReaderError) in
            if let listError = state.listError { throw listError }
            return state.readers
        }
    }

    func startMonitoring(_ handler: @escaping @Sendable (ReaderEvent) -> Void) throws(ReaderError) -> any ReaderMonitor {
        delivery.withLock { _ in
            let (initial, tags) = state.withLock { state in
                state.handler = handler
                return (state.readers, state.readers.compactMap { state.onReader[$0.name]?.tag })
            }
            for reader in initial { handler(.readerAdded(reader)) }
            for tag in tags { handler(.tagArrived(tag)) }
        }
        return FakeMonitor { [weak self] in
            self?.state.withLock { state in
                state.handler = nil
                state.monitorsStopped += 1
            }
        }
    }

    func connect(to tag: DetectedTag, exclusive: Bool) throws(ReaderError) -> any TagConnection {
        let card = try state.withLock { state throws(ReaderError) in
            state.connects.append((tag.uid, exclusive))
            if state.busyReaders.contains(tag.reader.name) { throw ReaderError.readerBusy(tag.reader.name) }
            guard let current = state.onReader[tag.reader.name], current.tag == tag else { throw ReaderError.tagGone }
            return current.card
        }
        return FakeConnection(tag: tag, card: card, backend: self)
    }

    // MARK: Scripting

    private func send(_ event: ReaderEvent) {
        let handler = state.withLock { $0.handler }
        handler?(event)
    }

    func plug(_ name: String) {
        let info = ReaderInfo(name: name, backend: .virtual)
        delivery.withLock { _ in
            state.withLock { $0.readers.append(info) }
            send(.readerAdded(info))
        }
    }

    func unplug(_ name: String) {
        delivery.withLock { _ in unplugNow(name) }
    }

    private func unplugNow(_ name: String) {
        let info = state.withLock { state in
            let info = state.readers.first { $0.name == name }
            state.readers.removeAll { $0.name == name }
            state.onReader[name] = nil
            return info
        }
        if let info { send(.readerRemoved(info)) }
    }

    /// Puts `card` on the reader; returns what the backend reports.
    @discardableResult
    func place(_ card: FakeCard, on readerName: String) -> DetectedTag {
        delivery.withLock { _ in placeNow(card, on: readerName) }
    }

    private func placeNow(_ card: FakeCard, on readerName: String) -> DetectedTag {
        let atr: [UInt8] = card.technology == .type2
            ? [UInt8](hex: "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68")!
            : [UInt8](hex: "3B 80 80 01 01")!
        let tag = state.withLock { state in
            state.presenceCounter += 1
            let reader = state.readers.first { $0.name == readerName } ?? ReaderInfo(name: readerName, backend: .virtual)
            let tag = DetectedTag(reader: reader, technology: card.technology, uid: card.uid, atr: atr,
                                  historicalBytes: card.historicalBytes, presence: state.presenceCounter)
            state.onReader[readerName] = (tag, card)
            return tag
        }
        send(.tagArrived(tag))
        return tag
    }

    func remove(from readerName: String) {
        delivery.withLock { _ in
            let current = state.withLock { $0.onReader.removeValue(forKey: readerName) }
            if let current { send(.tagLeft(current.tag)) }
        }
    }

    func serviceLost() {
        delivery.withLock { _ in send(.serviceLost(.serviceUnavailable(hint: "pcscd stopped"))) }
    }

    fileprivate func noteDisconnect() { state.withLock { $0.disconnects += 1 } }
    fileprivate func noteSignal(_ feedback: ReaderFeedback) { state.withLock { $0.signals.append(feedback) } }
    var isMonitoring: Bool { state.withLock { $0.handler != nil } }
}

final class FakeMonitor: ReaderMonitor, Sendable {
    private let onStop: @Sendable () -> Void
    init(onStop: @escaping @Sendable () -> Void) { self.onStop = onStop }
    func stop() { onStop() }
}

final class FakeConnection: TagConnection {
    let tag: DetectedTag
    let card: FakeCard
    private weak var backend: FakeBackend?

    init(tag: DetectedTag, card: FakeCard, backend: FakeBackend) {
        self.tag = tag
        self.card = card
        self.backend = backend
    }

    var apdu: (any Transceiver)? { card.technology == .type4 ? FakeAPDUChannel(card: card) : nil }
    var type2: (any Type2Link)? { card.technology == .type2 ? FakeType2Link(card: card) : nil }
    var iso15693: (any ISO15693Link)? { card.technology == .type5 ? card.iso15693Link : nil }
    func signal(_ feedback: ReaderFeedback) { backend?.noteSignal(feedback) }
    func disconnect() { backend?.noteDisconnect() }
}
