#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization

/// Shutdown is part of the thread rules (docs/architecture.md, "Threads and queues"): a program
/// that calls `exit()` right after invalidating its session must not have a monitor thread inside
/// pcsc-lite or libnfc while the libraries tear themselves down (an iOS-style program doing that
/// crashed in libpcsclite in 2 of 19 runs).
///
/// Every running monitor is tracked here; an `atexit` handler, installed with the first one and so
/// run before the C libraries' own destructors, stops those still running, waits for their threads
/// (at most `limit` in all: a daemon that never answers cannot keep the process alive), then for
/// the work they left on the reader lanes.
public enum MonitorsAtExit {
    /// How long the exit waits for monitors to stop.
    public static let limit: Double = 2

    private struct Entry: Sendable {
        let id: ObjectIdentifier
        weak var monitor: (any ReaderMonitor)?
    }

    /// A list: a process has a handful of monitors.
    private static let live = Mutex<[Entry]>([])
    private static let installed = Atomic(false)

    /// Tracks `monitor` until `untrack(_:)` (or the process exits).
    public static func track(_ monitor: any ReaderMonitor) {
        let id = ObjectIdentifier(monitor)
        live.withLock { entries in
            entries.removeAll { $0.id == id || $0.monitor == nil }
            entries.append(Entry(id: id, monitor: monitor))
        }
        if !installed.exchange(true, ordering: .acquiringAndReleasing) {
            atexit { MonitorsAtExit.stopAll() }
        }
    }

    /// The monitor was stopped.
    public static func untrack(_ monitor: any ReaderMonitor) {
        let id = ObjectIdentifier(monitor)
        live.withLock { $0.removeAll { $0.id == id } }
    }

    /// How many monitors run now (tests).
    public static var count: Int { live.withLock { $0.filter { $0.monitor != nil }.count } }

    /// Stops every tracked monitor, in parallel, waiting `limit` at most.
    static func stopAll() {
        let monitors = live.withLock { entries -> [any ReaderMonitor] in
            defer { entries = [] }
            return entries.compactMap(\.monitor)
        }
        guard !monitors.isEmpty else { return }
        let group = DispatchGroup()
        for monitor in monitors {
            group.enter()
            DispatchQueue.global().async {
                monitor.stop()
                group.leave()
            }
        }
        _ = group.wait(timeout: .now() + limit)
        // What the monitors queued as they stopped (closing a UID read's connection) runs now,
        // before the libraries' destructors; the lanes' own exit handler may have run already.
        ReaderLane.waitUntilAllIdle(timeout: ReaderLane.exitGrace)
    }
}
