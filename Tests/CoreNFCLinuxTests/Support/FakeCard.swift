import Foundation
import NFCTags
import ReaderCore
import Synchronization

/// A scripted tag: what the fake NDEF logic and the fake command channels answer.
final class FakeCard: Sendable {
    let uid: [UInt8]
    let technology: TagTechnology
    let historicalBytes: [UInt8]

    private struct State {
        // NDEF content and behaviour.
        var message: [UInt8]
        var status: NDEFTagStatus = .readWrite
        var capacity = 137
        var readFailure: TagError?
        var writeFailure: TagError?
        var notNDEF = false
        var locked = false
        var writes: [[UInt8]] = []
        // Command channels.
        var apduResponder: @Sendable ([UInt8]) -> [UInt8] = { _ in [0x6D, 0x00] }
        var apdusSent: [[UInt8]] = []
        var pages: [[UInt8]] = (0..<64).map { p in [UInt8](repeating: UInt8(p), count: 4) }
        var fastReadLimit = 64
        var canSendRawCommands = true
        var version: [UInt8] = [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03]
        var type2Log: [String] = []
        var iso15693Link: ScriptedISO15693Link?
    }
    private let state: Mutex<State>

    init(uid: [UInt8], technology: TagTechnology, message: [UInt8] = [], historicalBytes: [UInt8] = []) {
        self.uid = uid
        self.technology = technology
        self.historicalBytes = historicalBytes
        self.state = Mutex(State(message: message))
    }

    // NDEF content and behaviour.
    var message: [UInt8] {
        get { state.withLock { $0.message } }
        set { state.withLock { $0.message = newValue } }
    }
    var status: NDEFTagStatus {
        get { state.withLock { $0.status } }
        set { state.withLock { $0.status = newValue } }
    }
    var capacity: Int {
        get { state.withLock { $0.capacity } }
        set { state.withLock { $0.capacity = newValue } }
    }
    /// Thrown by the next NDEF read (then cleared).
    var readFailure: TagError? {
        get { state.withLock { $0.readFailure } }
        set { state.withLock { $0.readFailure = newValue } }
    }
    /// Thrown by every NDEF write while set.
    var writeFailure: TagError? {
        get { state.withLock { $0.writeFailure } }
        set { state.withLock { $0.writeFailure = newValue } }
    }
    var notNDEF: Bool {
        get { state.withLock { $0.notNDEF } }
        set { state.withLock { $0.notNDEF = newValue } }
    }
    var locked: Bool { state.withLock { $0.locked } }
    var writes: [[UInt8]] { state.withLock { $0.writes } }

    // Command channels.
    /// ISO 7816: answers an APDU with data + SW.
    var apduResponder: @Sendable ([UInt8]) -> [UInt8] {
        get { state.withLock { $0.apduResponder } }
        set { state.withLock { $0.apduResponder = newValue } }
    }
    var apdusSent: [[UInt8]] { state.withLock { $0.apdusSent } }
    /// Type 2 memory, 4-byte pages.
    var pages: [[UInt8]] {
        get { state.withLock { $0.pages } }
        set { state.withLock { $0.pages = newValue } }
    }
    var fastReadLimit: Int {
        get { state.withLock { $0.fastReadLimit } }
        set { state.withLock { $0.fastReadLimit = newValue } }
    }
    var canSendRawCommands: Bool {
        get { state.withLock { $0.canSendRawCommands } }
        set { state.withLock { $0.canSendRawCommands = newValue } }
    }
    var version: [UInt8] {
        get { state.withLock { $0.version } }
        set { state.withLock { $0.version = newValue } }
    }
    var type2Log: [String] { state.withLock { $0.type2Log } }
    /// ISO 15693 frames (`.type5` cards): what the connection's link answers.
    var iso15693Link: ScriptedISO15693Link? {
        get { state.withLock { $0.iso15693Link } }
        set { state.withLock { $0.iso15693Link = newValue } }
    }

    func takeReadFailure() -> TagError? {
        state.withLock { state in
            let failure = state.readFailure
            state.readFailure = nil
            return failure
        }
    }

    func recordWrite(_ bytes: [UInt8]) throws(TagError) {
        try state.withLock { state throws(TagError) in
            if let writeFailure = state.writeFailure { throw writeFailure }
            state.writes.append(bytes)
            state.message = bytes
        }
    }

    func lockTag() { state.withLock { $0.locked = true; $0.status = .readOnly } }

    func exchangeAPDU(_ command: [UInt8]) -> [UInt8] {
        let responder = state.withLock { state in
            state.apdusSent.append(command)
            return state.apduResponder
        }
        return responder(command)
    }

    func logType2(_ entry: String) { state.withLock { $0.type2Log.append(entry) } }
}

/// NDEF logic over a FakeCard (stands in for Type2Tag / Type4Tag).
final class FakeNDEFOperations: NDEFTagOperations {
    let card: FakeCard
    init(card: FakeCard) { self.card = card }

    func queryNDEFStatus() throws(TagError) -> (status: NDEFTagStatus, capacity: Int) {
        if card.notNDEF { return (.notSupported, 0) }
        return (card.status, card.capacity)
    }

    func readNDEF() throws(TagError) -> [UInt8] {
        if let failure = card.takeReadFailure() { throw failure }
        if card.notNDEF { throw TagError.notNDEFFormatted("CC magic is not E1") }
        return card.message
    }

    func writeNDEF(_ message: [UInt8]) throws(TagError) {
        if card.status == .readOnly { throw TagError.readOnly }
        if message.count > card.capacity { throw TagError.messageTooLarge(size: message.count, capacity: card.capacity) }
        try card.recordWrite(message)
    }

    func writeLock() throws(TagError) { card.lockTag() }
    func lockKind() throws(TagError) -> NDEFLockKind { .permanent }
}

final class FakeAPDUChannel: Transceiver {
    let card: FakeCard
    init(card: FakeCard) { self.card = card }
    func transceive(_ command: [UInt8]) throws(TagError) -> [UInt8] { card.exchangeAPDU(command) }
}

final class FakeType2Link: Type2Link {
    let card: FakeCard
    init(card: FakeCard) { self.card = card }

    func read(page: Int) throws(TagError) -> [UInt8] {
        card.logType2("READ \(page)")
        guard page < card.pages.count else { throw TagError.nak(0x00) }
        return (0..<4).flatMap { card.pages[(page + $0) % card.pages.count] }
    }

    var fastReadLimit: Int { card.fastReadLimit }

    func fastRead(from start: Int, to end: Int) throws(TagError) -> [UInt8] {
        card.logType2("FAST_READ \(start)-\(end)")
        return (start...end).flatMap { card.pages[$0] }
    }

    func write(page: Int, data: [UInt8]) throws(TagError) {
        card.logType2("WRITE \(page) \(data.hexString)")
        guard page < card.pages.count else { throw TagError.nak(0x00) }
        card.pages[page] = data
    }

    var canSendRawCommands: Bool { card.canSendRawCommands }

    func getVersion() throws(TagError) -> [UInt8] {
        card.logType2("GET_VERSION")
        return card.version
    }
}
