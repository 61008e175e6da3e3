import Dispatch
import LibNFC
import ReaderCore
import Synchronization

/// Opens a command's libnfc devices while the rest of the command starts.
///
/// Opening a device is the slowest part of a one-tap command, and none of it needs the session:
/// libnfc's `pn532_uart` driver alone sleeps 50 ms in `nfc_open` (it waits before flushing the
/// port), and a PN53x is then initialised with about a dozen frames. A command that knows its
/// devices as soon as its arguments are read (`scan`) opens them here, and the session engine,
/// which gets there a few milliseconds later, takes the device instead of opening it
/// (`LibNFCReaderSlot`). The devices are the ones the session's backend would open
/// (`LibNFCBackend.configuredDevices(adding:)`), opened and initialised the same way, so what the
/// session sees is the same, only sooner: an open that failed fails the session's open with the
/// same error.
///
/// Each device is opened once: the session's slot claims what was opened for its connstring and
/// waits while the open is still running (never opening the port a second time beside it). A
/// device nobody claims within `unclaimedLifetime` is closed (nfc_close: field off, port
/// released). Use: `reserve()` before anything that may begin a session, then `prepare(adding:)`
/// and `open()` on a thread that has nothing else to do (`nfctap` uses its main thread).
public enum LibNFCOpenAhead {
    /// What became of one device opened ahead.
    typealias Outcome = Result<LibNFCDevice, LibNFCError>

    private struct State: WaitableState {
        var reserved = false
        /// The connstrings being opened (nil until `prepare` has read them).
        var connstrings: [String]?
        /// Outcomes not claimed yet.
        var outcomes: [String: Outcome] = [:]
        /// Connstrings already claimed (or closed unclaimed): a later open is the slot's own.
        var claimed: [String] = []
        /// Every listed device has its outcome.
        var finished = false
        var waiters = StateWaiters()
    }

    private static let state = Mutex(State())

    /// How long an unclaimed device stays open by default.
    public static let unclaimedLifetime: DispatchTimeInterval = .seconds(10)

    /// Claims the process's one open-ahead, or nil when it was claimed before. From then on a
    /// session's slot waits for this open-ahead instead of opening a device itself (until
    /// `Opener.open()` has given every listed device its outcome), so call it before starting
    /// anything that may begin a session, and make sure `prepare` and `open` follow.
    public static func reserve() -> Ticket? {
        let first = state.change { state -> Bool in
            guard !state.reserved else { return false }
            state.reserved = true
            return true
        }
        return first ? Ticket() : nil
    }

    /// The right to open the devices ahead, once.
    public struct Ticket: Sendable {
        fileprivate init() {}

        /// Lists the libnfc devices a session with the default backends and `extra` named
        /// devices would open and creates the libnfc context (reads `/etc/nfc/libnfc.conf`), on
        /// the calling thread. The open itself is `Opener.open()`: a caller can start the
        /// command's work in between, so that only what must come first delays the open.
        public func prepare(adding extra: [String]) -> Opener {
            let connstrings = LibNFCBackend.configuredDevices(adding: extra)
            state.change { $0.connstrings = connstrings }
            let context = connstrings.isEmpty ? nil : Result { () throws(LibNFCError) in try LibNFCContext() }
            return Opener(connstrings: connstrings, context: context)
        }
    }

    /// The listed devices, ready to be opened.
    public struct Opener: Sendable {
        let connstrings: [String]
        let context: Result<LibNFCContext, LibNFCError>?

        /// Opens and initialises each device on the calling thread, handing each outcome to the
        /// session that claims it (or waits for it); a device still unclaimed `lifetime` later is
        /// closed.
        public func open(closingUnclaimedAfter lifetime: DispatchTimeInterval = LibNFCOpenAhead.unclaimedLifetime) {
            for connstring in connstrings {
                guard let context else { break }
                let outcome = context.flatMap { context in
                    Result { () throws(LibNFCError) in try LibNFCReaderSlot.openInitialised(connstring, in: context) }
                }
                state.change { $0.outcomes[connstring] = outcome }
            }
            state.change { $0.finished = true }
            if !connstrings.isEmpty {
                DispatchQueue.global().asyncAfter(deadline: .now() + lifetime) { closeUnclaimed() }
            }
        }
    }

    /// The device opened ahead for `connstring`, once its open has ended (waiting for it); nil
    /// when no open-ahead was reserved, it does not list `connstring`, or the device was claimed
    /// already. Claims it: a second call gets nil.
    static func claim(_ connstring: String) -> Outcome? {
        guard state.withLock({ $0.reserved && !$0.claimed.contains(connstring) }) else { return nil }
        _ = state.wait { state in
            guard let listed = state.connstrings else { return false }
            return state.finished || !listed.contains(connstring) || state.outcomes[connstring] != nil
        }
        return state.withLock { state in
            guard !state.claimed.contains(connstring) else { return nil }
            state.claimed.append(connstring)
            return state.outcomes.removeValue(forKey: connstring)
        }
    }

    private static func closeUnclaimed() {
        let left = state.withLock { state -> [LibNFCDevice] in
            let devices = state.outcomes.values.compactMap { try? $0.get() }
            state.claimed += state.outcomes.keys
            state.outcomes = [:]
            return devices
        }
        for device in left { device.close() }
    }
}
