import Foundation
import NDEF
import NFCTags
import PCSC
import ReaderCore
import Synchronization
import TagEmulation
import Testing

/// A vpcd card with a fixed ATR and canned APDU replies; records every APDU it receives.
final class ScriptedCard: VPCDCardBehaviour, Sendable {
    private struct State {
        var atr: [UInt8]?
        var received: [[UInt8]] = []
    }

    private let replies: [[UInt8]: [UInt8]]
    private let state: Mutex<State>

    /// Unknown commands get `6D 00` (instruction not supported).
    init(atr: [UInt8], replies: [[UInt8]: [UInt8]]) {
        state = Mutex(State(atr: atr))
        self.replies = replies
    }

    /// The APDUs received so far, in order.
    var received: [[UInt8]] { state.withLock { $0.received } }

    /// Makes the card leave the field at the next request (nil ATR / nil reply).
    func leaveField() { state.withLock { $0.atr = nil } }

    var atr: [UInt8]? { state.withLock { $0.atr } }

    func transmit(_ apdu: [UInt8]) -> [UInt8]? {
        state.withLock {
            guard $0.atr != nil else { return nil }
            $0.received.append(apdu)
            return replies[apdu] ?? [0x6D, 0x00]
        }
    }
}

/// Collects a monitor's events and waits for the ones a test expects.
// @unchecked: the vars are only touched with `condition` held (an NSCondition: the waits need a condition variable, which Mutex lacks)
final class EventLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var events: [ReaderEvent] = []

    var handler: @Sendable (ReaderEvent) -> Void {
        { [self] event in
            condition.lock()
            events.append(event)
            condition.broadcast()
            condition.unlock()
        }
    }

    var all: [ReaderEvent] {
        condition.lock(); defer { condition.unlock() }
        return events
    }

    /// Waits for the first event after index `from` that `match` accepts, returning it and its
    /// index. The deadline only keeps a broken build from hanging the run: it is never asserted on.
    @discardableResult
    func waitFor<T>(after from: Int = 0, deadline seconds: Double = 20,
                    sourceLocation: SourceLocation = #_sourceLocation,
                    _ match: (ReaderEvent) -> T?) -> (value: T, index: Int)? {
        let limit = Date().addingTimeInterval(seconds)
        condition.lock(); defer { condition.unlock() }
        var i = from
        while true {
            while i < events.count {
                if let v = match(events[i]) { return (v, i) }
                i += 1
            }
            if !condition.wait(until: limit) {
                Issue.record("expected event never came; got \(events)", sourceLocation: sourceLocation)
                return nil
            }
        }
    }
}

/// Matchers for `EventLog.waitFor`.
extension ReaderEvent {
    func tagArrived(on reader: String) -> DetectedTag? {
        if case let .tagArrived(tag) = self, tag.reader.name == reader { return tag }
        return nil
    }
    func tagLeft(on reader: String) -> DetectedTag? {
        if case let .tagLeft(tag) = self, tag.reader.name == reader { return tag }
        return nil
    }
    func readerAdded(_ name: String) -> ReaderInfo? {
        if case let .readerAdded(info) = self, info.name == name { return info }
        return nil
    }
    func readerRemoved(_ name: String) -> ReaderInfo? {
        if case let .readerRemoved(info) = self, info.name == name { return info }
        return nil
    }
    var isServiceLost: ReaderError? {
        if case let .serviceLost(error) = self { return error }
        return nil
    }
    var isServiceRestored: Bool? {
        if case .serviceRestored = self { return true }
        return nil
    }
}

/// The test pcscd (scripts/services/pcscd.sh) and its vpcd readers.
enum TestPCSCD {
    /// `tag` on vpcd reader 0 behind `profile`'s personality, for `body`; taken out after.
    static func withCard(_ tag: VirtualTag, profile: PCSCReaderProfile, _ body: (EmulatedPCSCReader) throws -> Void) throws {
        let reader = EmulatedPCSCReader(profile: profile, tag: tag)
        let vpcd = VPCDCard(behaviour: reader, port: port0)
        try vpcd.insert()
        defer { vpcd.stop() }
        try waitUntilCardIsPresent(reader0)
        try body(reader)
    }

    static let reader0 = "Virtual PCD 00 00"
    static let reader1 = "Virtual PCD 00 01"

    static var port0: UInt16 {
        SystemEnvironment.environment["NFCTAP_VPCD_PORT"].flatMap(UInt16.init) ?? VPCDCard.defaultPort
    }
    static var port1: UInt16 { port0 + 1 }

    /// Runs scripts/services/pcscd-ctl `action` (start, kill, stop, restart).
    static func control(_ action: String) throws {
        let script = SystemEnvironment.environment["NFCTAP_PCSCD_CTL"]
            ?? SystemEnvironment.packageRoot.appendingPathComponent("scripts/services/pcscd-ctl").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = [action]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "pcscd-ctl \(action) failed")
    }

    /// Waits until pcscd sees both vpcd readers empty: a card a previous test removed is only
    /// noticed at pcscd's next poll (about 400 ms), and must not be taken for this test's card.
    static func waitUntilReadersAreEmpty(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let context = try Context()
        for _ in 0..<200 {
            var states = [reader0, reader1].map { ReaderState(reader: $0) }
            try context.getStatusChange(&states, timeout: .zero)
            if states.allSatisfy({ $0.eventState.contains(.empty) }) { return }
            usleep(50_000)
        }
        Issue.record("a card stayed in a vpcd reader", sourceLocation: sourceLocation)
    }

    /// NTAG / Ultralight storage-card ATR (specs §3).
    static let ntagATR = [UInt8](hex: "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68")!
    /// ISO 14443-4 card with one historical byte.
    static let type4ATR = [UInt8](hex: "3B 81 80 01 80 80")!
}
