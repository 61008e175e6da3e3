#if canImport(Glibc)
import Glibc
#endif
import CPCSCLite
import Synchronization

/// Every call into libpcsclite passes `LibraryGate.pcscLite`, so that none is inside the library
/// when it tears itself down. pcsc-lite's destructor frees its list of contexts without taking its
/// lock (winscard_clnt.c, `destructor`): a thread inside a call at that moment (a context released
/// on a queue as a session ends, a card disconnected on its lane) or entering one afterwards walks
/// freed memory, and the process dies with SIGSEGV after `exit(0)`.
///
/// The gate's `atexit` handler is installed by the first call, so it runs after every handler the
/// reader layers install later (`atexit` runs the last one first: `MonitorsAtExit`, the lanes'
/// drain) and before the libraries' destructors. It closes the gate, so that later calls answer
/// `SCARD_E_NO_SERVICE` without entering the library, and waits (at most `exitLimit`) for the
/// calls still inside.
final class LibraryGate: Sendable {
    /// The gate of every pcsc-lite call of the process.
    static let pcscLite = LibraryGate(closesAtExit: true)

    /// How long closing waits for calls still inside (the monitors were stopped before).
    static let exitLimit: Duration = .milliseconds(500)

    private let inside = Atomic<Int>(0)
    private let closed = Atomic<Bool>(false)
    private let installed: Atomic<Bool>

    /// - Parameter closesAtExit: false for a gate only closed by `close()` (tests).
    init(closesAtExit: Bool) {
        installed = Atomic(!closesAtExit)
    }

    /// Runs `body` (one pcsc-lite call) unless the gate is closed; closed, answers SCARD_E_NO_SERVICE.
    @inline(__always)
    func call(_ body: () -> LONG) -> LONG {
        if !installed.load(ordering: .relaxed) { installExitHandler() }
        // Counted before the check, and `close()` closes before it counts: one sees the other.
        inside.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer { inside.wrappingSubtract(1, ordering: .sequentiallyConsistent) }
        guard !closed.load(ordering: .sequentiallyConsistent) else { return LONG(PCSCError.noService.rawValue) }
        return body()
    }

    /// Shorthand for `LibraryGate.pcscLite.call(body)`.
    @inline(__always)
    static func call(_ body: () -> LONG) -> LONG { pcscLite.call(body) }

    private func installExitHandler() {
        if !installed.exchange(true, ordering: .acquiringAndReleasing) {
            atexit { LibraryGate.pcscLite.close(waiting: LibraryGate.exitLimit) }
        }
    }

    /// Closes the gate, then waits (at most `limit`) until no call is inside.
    /// - Returns: whether every call had returned.
    @discardableResult
    func close(waiting limit: Duration) -> Bool {
        closed.store(true, ordering: .sequentiallyConsistent)
        let end = ContinuousClock.now + limit
        while inside.load(ordering: .sequentiallyConsistent) > 0 {
            guard ContinuousClock.now < end else { return false }
            usleep(500)
        }
        return true
    }
}
