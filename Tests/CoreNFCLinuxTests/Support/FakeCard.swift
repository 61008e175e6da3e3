import Foundation
import NFCTags
import ReaderCore

/// A scripted tag: what the fake NDEF logic and the fake command channels answer.
final class FakeCard: @unchecked Sendable {
    let uid: [UInt8]
    let technology: TagTechnology
    let historicalBytes: [UInt8]
    private let lock = NSLock()

    // NDEF content and behaviour.
    private var _message: [UInt8]
    var status: NDEFTagStatus = .readWrite
    var capacity = 137
    /// Thrown by the next NDEF read (then cleared).
    var readFailure: (any Error)?
    /// Thrown by every NDEF write while set.
    var writeFailure: (any Error)?
    var notNDEF = false
    private(set) var locked = false
    private(set) var writes: [[UInt8]] = []

    // Command channels.
    /// ISO 7816: answers an APDU with data + SW.
    var apduResponder: ([UInt8]) -> [UInt8] = { _ in [0x6D, 0x00] }
    private(set) var apdusSent: [[UInt8]] = []
    /// Type 2 memory, 4-byte pages.
    var pages: [[UInt8]] = (0..<64).map { p in [UInt8](repeating: UInt8(p), count: 4) }
    var fastReadLimit = 64
    var canSendRawCommands = true
    var version: [UInt8] = [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03]
    private(set) var type2Log: [String] = []

    init(uid: [UInt8], technology: TagTechnology, message: [UInt8] = [], historicalBytes: [UInt8] = []) {
        self.uid = uid
        self.technology = technology
        self._message = message
        self.historicalBytes = historicalBytes
    }

    var message: [UInt8] {
        get { lock.lock(); defer { lock.unlock() }; return _message }
        set { lock.lock(); _message = newValue; lock.unlock() }
    }

    func takeReadFailure() -> (any Error)? {
        lock.lock(); defer { lock.unlock() }
        let failure = readFailure
        readFailure = nil
        return failure
    }

    func recordWrite(_ bytes: [UInt8]) throws {
        lock.lock(); defer { lock.unlock() }
        if let writeFailure { throw writeFailure }
        writes.append(bytes)
        _message = bytes
    }

    func lockTag() { lock.lock(); locked = true; status = .readOnly; lock.unlock() }

    func exchangeAPDU(_ command: [UInt8]) -> [UInt8] {
        lock.lock(); apdusSent.append(command); lock.unlock()
        return apduResponder(command)
    }

    func logType2(_ entry: String) { lock.lock(); type2Log.append(entry); lock.unlock() }
}

/// NDEF logic over a FakeCard (stands in for Type2Tag / Type4Tag).
final class FakeNDEFOperations: NDEFTagOperations {
    let card: FakeCard
    init(card: FakeCard) { self.card = card }

    func queryNDEFStatus() throws -> (status: NDEFTagStatus, capacity: Int) {
        if card.notNDEF { return (.notSupported, 0) }
        return (card.status, card.capacity)
    }

    func readNDEF() throws -> [UInt8] {
        if let failure = card.takeReadFailure() { throw failure }
        if card.notNDEF { throw TagError.notNDEFFormatted("CC magic is not E1") }
        return card.message
    }

    func writeNDEF(_ message: [UInt8]) throws {
        if card.status == .readOnly { throw TagError.readOnly }
        if message.count > card.capacity { throw TagError.messageTooLarge(size: message.count, capacity: card.capacity) }
        try card.recordWrite(message)
    }

    func writeLock() throws { card.lockTag() }
}

final class FakeAPDUChannel: Transceiver {
    let card: FakeCard
    init(card: FakeCard) { self.card = card }
    func transceive(_ command: [UInt8]) throws -> [UInt8] { card.exchangeAPDU(command) }
}

final class FakeType2Link: Type2Link {
    let card: FakeCard
    init(card: FakeCard) { self.card = card }

    func read(page: Int) throws -> [UInt8] {
        card.logType2("READ \(page)")
        guard page < card.pages.count else { throw TagError.nak(0x00) }
        return (0..<4).flatMap { card.pages[(page + $0) % card.pages.count] }
    }

    var fastReadLimit: Int { card.fastReadLimit }

    func fastRead(from start: Int, to end: Int) throws -> [UInt8] {
        card.logType2("FAST_READ \(start)-\(end)")
        return (start...end).flatMap { card.pages[$0] }
    }

    func write(page: Int, data: [UInt8]) throws {
        card.logType2("WRITE \(page) \(data.hexString)")
        guard page < card.pages.count else { throw TagError.nak(0x00) }
        card.pages[page] = data
    }

    var canSendRawCommands: Bool { card.canSendRawCommands }

    func getVersion() throws -> [UInt8] {
        card.logType2("GET_VERSION")
        return card.version
    }
}
