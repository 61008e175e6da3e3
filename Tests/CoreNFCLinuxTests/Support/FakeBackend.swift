import Foundation
import NFCTags
import ReaderCore

/// A scripted reader stack: readers come and go, cards are placed and removed, each change
/// is reported to the monitoring handler at once, on the calling thread.
final class FakeBackend: ReaderBackend, @unchecked Sendable {
    let kind: ReaderBackendKind = .virtual
    private let lock = NSLock()
    private var readers: [ReaderInfo]
    private var onReader: [String: (tag: DetectedTag, card: FakeCard)] = [:]
    private var handler: (@Sendable (ReaderEvent) -> Void)?
    private var presenceCounter: UInt64 = 0

    /// Thrown by `listReaders()` while set.
    var listError: ReaderError?
    /// Readers held by "another process".
    var busyReaders: Set<String> = []
    private(set) var connects: [(uid: [UInt8], exclusive: Bool)] = []
    private(set) var disconnects = 0
    private(set) var monitorsStopped = 0
    private(set) var signals: [ReaderFeedback] = []

    init(readers: [String]) {
        self.readers = readers.map { ReaderInfo(name: $0, backend: .virtual) }
    }

    func listReaders() throws -> [ReaderInfo] {
        lock.lock(); defer { lock.unlock() }
        if let listError { throw listError }
        return readers
    }

    func startMonitoring(_ handler: @escaping @Sendable (ReaderEvent) -> Void) throws -> any ReaderMonitor {
        lock.lock()
        self.handler = handler
        let initial = readers
        let tags = initial.compactMap { onReader[$0.name]?.tag }
        lock.unlock()
        for reader in initial { handler(.readerAdded(reader)) }
        for tag in tags { handler(.tagArrived(tag)) }
        return FakeMonitor { [weak self] in
            guard let self else { return }
            self.lock.lock()
            self.handler = nil
            self.monitorsStopped += 1
            self.lock.unlock()
        }
    }

    func connect(to tag: DetectedTag, exclusive: Bool) throws -> any TagConnection {
        lock.lock(); defer { lock.unlock() }
        connects.append((tag.uid, exclusive))
        if busyReaders.contains(tag.reader.name) { throw ReaderError.readerBusy(tag.reader.name) }
        guard let current = onReader[tag.reader.name], current.tag == tag else { throw ReaderError.tagGone }
        return FakeConnection(tag: tag, card: current.card, backend: self)
    }

    // MARK: Scripting

    private func send(_ event: ReaderEvent) {
        lock.lock()
        let handler = self.handler
        lock.unlock()
        handler?(event)
    }

    func plug(_ name: String) {
        let info = ReaderInfo(name: name, backend: .virtual)
        lock.lock(); readers.append(info); lock.unlock()
        send(.readerAdded(info))
    }

    func unplug(_ name: String) {
        lock.lock()
        let info = readers.first { $0.name == name }
        readers.removeAll { $0.name == name }
        onReader[name] = nil
        lock.unlock()
        if let info { send(.readerRemoved(info)) }
    }

    /// Puts `card` on the reader; returns what the backend reports.
    @discardableResult
    func place(_ card: FakeCard, on readerName: String) -> DetectedTag {
        lock.lock()
        presenceCounter += 1
        let reader = readers.first { $0.name == readerName } ?? ReaderInfo(name: readerName, backend: .virtual)
        let atr: [UInt8] = card.technology == .type2
            ? [UInt8](hex: "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68")!
            : [UInt8](hex: "3B 80 80 01 01")!
        let tag = DetectedTag(reader: reader, technology: card.technology, uid: card.uid, atr: atr,
                              historicalBytes: card.historicalBytes, presence: presenceCounter)
        onReader[readerName] = (tag, card)
        lock.unlock()
        send(.tagArrived(tag))
        return tag
    }

    func remove(from readerName: String) {
        lock.lock()
        let current = onReader.removeValue(forKey: readerName)
        lock.unlock()
        if let current { send(.tagLeft(current.tag)) }
    }

    func serviceLost() { send(.serviceLost(.serviceUnavailable(hint: "pcscd stopped"))) }

    fileprivate func noteDisconnect() { lock.lock(); disconnects += 1; lock.unlock() }
    fileprivate func noteSignal(_ feedback: ReaderFeedback) { lock.lock(); signals.append(feedback); lock.unlock() }
    var isMonitoring: Bool { lock.lock(); defer { lock.unlock() }; return handler != nil }
}

final class FakeMonitor: ReaderMonitor, @unchecked Sendable {
    private let onStop: () -> Void
    init(onStop: @escaping () -> Void) { self.onStop = onStop }
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
    func signal(_ feedback: ReaderFeedback) { backend?.noteSignal(feedback) }
    func disconnect() { backend?.noteDisconnect() }
}
