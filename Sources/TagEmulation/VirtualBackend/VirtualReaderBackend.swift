import Foundation
import NFCTags
import ReaderCore
import Synchronization

/// In-process readers with virtual tags: a `ReaderBackend` for `nfctap demo`, tests and the soak.
///
/// Each reader is an `EmulatedPCSCReader`, so tag commands take the same path as through pcscd
/// (pseudo-APDUs for Type 2, APDUs for Type 4) without a daemon. Tests script taps with
/// `place(_:on:)` / `remove(from:)`, plug readers in and out, and take the "service" away.
/// Events go to every monitor on one serial queue each, in the order they happened.
public final class VirtualReaderBackend: ReaderBackend, Sendable {
    public let kind: ReaderBackendKind = .virtual

    private struct Slot {
        var info: ReaderInfo
        var reader: EmulatedPCSCReader
        var present: DetectedTag?
        var exclusiveHolder: ObjectIdentifier?
        /// Monitors started before this number never hear of the reader (`addReaderUnseen`).
        var unseenBefore = 0
    }

    private struct State {
        var slots: [Slot] = []
        var monitors: [ObjectIdentifier: (monitor: VirtualReaderMonitor, serial: Int)] = [:]
        var monitorsStarted = 0
        var nextPresence: UInt64 = 0
        var serviceUp = true
        var feedback: [(reader: String, feedback: ReaderFeedback)] = []
        var trace: ExchangeTrace?
    }

    private let state: Mutex<State>

    /// Where this backend's connections log their exchanges; nil = the process's
    /// `ExchangeTrace.active` (`--trace`).
    public var trace: ExchangeTrace? {
        get { state.withLock { $0.trace } }
        set { state.withLock { $0.trace = newValue } }
    }

    /// - Parameters:
    ///   - readerNames: readers attached at the start.
    ///   - profile: the reader personality (ACR122U: FAST_READ through direct transmit, LED/buzzer).
    public init(readerNames: [String] = ["nfctap Virtual Reader 00"], profile: PCSCReaderProfile = .acr122u) {
        var initial = State()
        for name in readerNames { Self.addReader(name, profile: profile, to: &initial) }
        state = Mutex(initial)
    }

    // MARK: Scripting

    /// Plugs a reader in.
    public func addReader(_ name: String, profile: PCSCReaderProfile = .acr122u) {
        let info = state.withLock { Self.addReader(name, profile: profile, to: &$0) }
        broadcast(.readerAdded(info))
    }

    /// Plugs a reader in that the running monitors miss, as pcsc-lite's monitor misses a remove and
    /// an add inside one wait: `listReaders()` lists it, but they report nothing about it (its tags
    /// included); a monitor started later sees it. For the session's reader watchdog.
    public func addReaderUnseen(_ name: String, profile: PCSCReaderProfile = .acr122u) {
        state.withLock { state in
            Self.addReader(name, profile: profile, to: &state)
            state.slots[state.slots.count - 1].unseenBefore = state.monitorsStarted + 1
        }
    }

    /// Unplugs a reader; a tag on it leaves with it.
    public func removeReader(_ name: String) {
        let removed: Slot? = state.withLock { state in
            guard let i = state.slots.firstIndex(where: { $0.info.name == name }) else { return nil }
            // Unplugged: open connections through it get no more answers.
            state.slots[i].reader.tag = nil
            return state.slots.remove(at: i)
        }
        guard let removed else { return }
        if let tag = removed.present { broadcast(.tagLeft(tag)) }
        broadcast(.readerRemoved(removed.info))
    }

    /// Puts a tag on a reader (replacing any tag there): one tap.
    @discardableResult
    public func place(_ tag: VirtualTag, on readerName: String) -> DetectedTag? {
        remove(from: readerName)
        let detected: DetectedTag? = state.withLock { state in
            guard let i = state.slots.firstIndex(where: { $0.info.name == readerName }) else { return nil }
            state.nextPresence += 1
            state.slots[i].reader.tag = tag
            var detected = DetectedTag(
                reader: state.slots[i].info,
                technology: tag is VirtualISO15693Tag ? .type5 : tag is VirtualMifareClassic ? .mifareClassic
                    : tag.sak & 0x20 != 0 ? .type4 : .type2,
                uid: tag.uid,
                atr: EmulatedPCSCReader.atr(for: tag),
                historicalBytes: (try? ATS(bytes: tag.ats ?? []).historicalBytes) ?? [],
                presence: state.nextPresence)
            detected.atqa = tag.atqa
            detected.sak = tag.sak
            if let card = tag as? VirtualFeliCaCard {
                // As the libnfc backend reports it after Polling the wildcard system.
                detected = DetectedTag(reader: state.slots[i].info, feliCa: card.identity, atr: detected.atr, presence: state.nextPresence)
            }
            state.slots[i].present = detected
            return detected
        }
        if let detected { broadcast(.tagArrived(detected)) }
        return detected
    }

    /// Takes the tag off a reader (it leaves the field, even in the middle of an exchange).
    public func remove(from readerName: String) {
        let left: DetectedTag? = state.withLock { state in
            guard let i = state.slots.firstIndex(where: { $0.info.name == readerName }), let present = state.slots[i].present else { return nil }
            state.slots[i].present = nil
            state.slots[i].reader.tag = nil
            return present
        }
        if let left { broadcast(.tagLeft(left)) }
    }

    /// The emulated reader behind a name (fault plans, LED state, the tag's memory).
    public func reader(named name: String) -> EmulatedPCSCReader? {
        state.withLock { state in state.slots.first { $0.info.name == name }?.reader }
    }

    /// Simulates the service going away (as pcscd being killed) and coming back.
    public func loseService() {
        state.withLock { state in state.serviceUp = false }
        broadcast(.serviceLost(.serviceUnavailable(hint: "the virtual reader service stopped")))
    }

    public func restoreService() {
        let (infos, tags): ([ReaderInfo], [DetectedTag]) = state.withLock { state in
            state.serviceUp = true
            return (state.slots.map(\.info), state.slots.compactMap(\.present))
        }
        broadcast(.serviceRestored)
        for info in infos { broadcast(.readerAdded(info)) }
        for tag in tags { broadcast(.tagArrived(tag)) }
    }

    /// Every LED/buzzer signal, in order.
    public var feedbackLog: [(reader: String, feedback: ReaderFeedback)] { state.withLock { state in state.feedback } }

    // MARK: ReaderBackend

    public func listReaders() throws(ReaderError) -> [ReaderInfo] {
        try state.withLock { state throws(ReaderError) in
            guard state.serviceUp else { throw ReaderError.serviceUnavailable(hint: "the virtual reader service is stopped") }
            return state.slots.map(\.info)
        }
    }

    public func startMonitoring(_ handler: @escaping @Sendable (ReaderEvent) -> Void) throws(ReaderError) -> ReaderMonitor {
        let monitor = VirtualReaderMonitor(handler: handler) { [weak self] m in
            _ = self?.state.withLock { $0.monitors.removeValue(forKey: ObjectIdentifier(m)) }
        }
        // Register and queue the initial state under the lock, so no event slips in between.
        try state.withLock { state throws(ReaderError) in
            guard state.serviceUp else { throw ReaderError.serviceUnavailable(hint: "the virtual reader service is stopped") }
            state.monitorsStarted += 1
            state.monitors[ObjectIdentifier(monitor)] = (monitor, state.monitorsStarted)
            for slot in state.slots { monitor.post(.readerAdded(slot.info)) }
            for slot in state.slots { if let tag = slot.present { monitor.post(.tagArrived(tag)) } }
        }
        return monitor
    }

    public func connect(to tag: DetectedTag, exclusive: Bool) throws(ReaderError) -> TagConnection {
        try state.withLock { state throws(ReaderError) in
            guard state.serviceUp else { throw ReaderError.serviceUnavailable(hint: "the virtual reader service is stopped") }
            guard let i = state.slots.firstIndex(where: { $0.info.name == tag.reader.name }) else {
                throw ReaderError.readerGone(tag.reader.name)
            }
            guard state.slots[i].present?.presence == tag.presence else { throw ReaderError.tagGone }
            guard state.slots[i].exclusiveHolder == nil else { throw ReaderError.readerBusy(tag.reader.name) }
            let connection = VirtualTagConnection(tag: tag, reader: state.slots[i].reader, backend: self,
                                                  trace: state.trace ?? ExchangeTrace.active)
            if exclusive { state.slots[i].exclusiveHolder = ObjectIdentifier(connection) }
            return connection
        }
    }

    // MARK: Internals

    @discardableResult
    private static func addReader(_ name: String, profile: PCSCReaderProfile, to state: inout State) -> ReaderInfo {
        let info = ReaderInfo(name: name, backend: .virtual, supportsFeedback: true)
        state.slots.append(Slot(info: info, reader: EmulatedPCSCReader(profile: profile)))
        return info
    }

    private func broadcast(_ event: ReaderEvent) {
        state.withLock { state in
            let reader: String? = switch event {
            case let .readerAdded(info), let .readerRemoved(info): info.name
            case let .tagArrived(tag), let .tagLeft(tag): tag.reader.name
            case .serviceLost, .serviceRestored: nil
            }
            let unseenBefore = state.slots.first { $0.info.name == reader }?.unseenBefore ?? 0
            for (monitor, serial) in state.monitors.values where serial >= unseenBefore { monitor.post(event) }
        }
    }

    fileprivate func release(_ connection: VirtualTagConnection) {
        state.withLock { state in
            for i in state.slots.indices where state.slots[i].exclusiveHolder == ObjectIdentifier(connection) {
                state.slots[i].exclusiveHolder = nil
            }
        }
    }

    fileprivate func record(_ feedback: ReaderFeedback, on reader: String) {
        state.withLock { state in state.feedback.append((reader, feedback)) }
    }
}

/// Delivers one backend's events to one handler, in order, on its own serial queue.
final class VirtualReaderMonitor: ReaderMonitor, Sendable {
    private let queue = DispatchQueue(label: "nfctap.virtual-monitor")
    private let handler: @Sendable (ReaderEvent) -> Void
    private let onStop: @Sendable (VirtualReaderMonitor) -> Void
    private let stopped = Atomic(false)

    init(handler: @escaping @Sendable (ReaderEvent) -> Void, onStop: @escaping @Sendable (VirtualReaderMonitor) -> Void) {
        self.handler = handler
        self.onStop = onStop
        queue.setSpecific(key: Self.key, value: ())
    }

    func post(_ event: ReaderEvent) {
        queue.async { [self] in
            guard !stopped.load(ordering: .acquiring) else { return }
            handler(event)
        }
    }

    func stop() {
        stopped.store(true, ordering: .releasing)
        onStop(self)
        // Returns once no handler call is running or will run.
        if DispatchQueue.getSpecific(key: Self.key) == nil { queue.sync {} }
    }

    private static let key = DispatchSpecificKey<Void>()
}

/// A connection to a virtual tag through its emulated reader.
final class VirtualTagConnection: TagConnection {
    let tag: DetectedTag
    let apdu: Transceiver?
    let type2: Type2Link?
    let iso15693: ISO15693Link?
    let feliCa: Transceiver?
    let mifareClassic: MifareClassicLink?
    private weak var backend: VirtualReaderBackend?
    private let reader: EmulatedPCSCReader
    private let abandoned = AbandonFlag()
    private var closed = false

    init(tag: DetectedTag, reader: EmulatedPCSCReader, backend: VirtualReaderBackend, trace: ExchangeTrace?) {
        self.tag = tag
        self.backend = backend
        self.reader = reader
        var transceiver: any Transceiver = AbandonableTransceiver(EmulatedPCSCTransceiver(reader: reader), flag: abandoned)
        if let trace {
            trace.connected(reader: tag.reader.name, atr: tag.atr)
            transceiver = TracedTransceiver(transceiver, trace: trace)
        }
        apdu = tag.technology == .type4 ? transceiver : nil
        // The reader's own link: its `recover` re-presents the tag as SCardReconnect does.
        type2 = tag.technology == .type2 ? reader.type2Link(over: transceiver) : nil
        iso15693 = tag.technology == .type5 ? try? PCSCISO15693Link(transceiver: transceiver, profile: reader.profile, uid: tag.uid) : nil
        // FeliCa frames as the reader's profile passes them (ACR122U direct transmit, else FF C2).
        feliCa = tag.technology == .feliCa ? PCSCFeliCaChannel.make(reader: transceiver, profile: reader.profile) : nil
        // A refused key halts the card: re-presented as SCardReconnect with a reset does.
        mifareClassic = tag.technology == .mifareClassic
            ? PCSCMifareClassicLink(transceiver: transceiver, profile: reader.profile, recover: { [weak reader] () throws(TagError) in
                guard let reader, reader.plan.tagPresent, reader.tag != nil else { throw TagError.tagLost }
                reader.reset()
            }) : nil
    }

    func signal(_ feedback: ReaderFeedback) {
        backend?.record(feedback, on: tag.reader.name)
    }

    /// Later exchanges fail at once; an exchange stalled by `InjectedFault.stall` is released
    /// (as a real reader's driver giving up), so abandoned work never keeps a thread.
    var abandoner: @Sendable () -> Void {
        { [abandoned, plan = reader.plan] in
            abandoned.raise()
            plan.releaseStalls()
        }
    }

    func disconnect() {
        guard !closed else { return }
        closed = true
        (iso15693 as? PCSCISO15693Link)?.close()
        backend?.release(self)
    }

    deinit { disconnect() }
}
