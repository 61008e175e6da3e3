import Dispatch
import Foundation
import Synchronization
import SystemPackage

/// Turns SIGINT/SIGTERM (and SIGHUP where asked) into calls on a queue instead of the default
/// "die now", so sessions end with Core NFC's 200 and files are flushed.
///
/// A signal that arrives once `init` has returned is never lost: the trap installs a signal
/// handler (`sigaction`) before it returns, and the handler writes the number into a pipe that
/// is drained on a private queue. (A `DispatchSourceSignal` is registered asynchronously on
/// Linux: with `SIG_IGN` set first, a signal sent in between was discarded, which made
/// `kill(getpid(), …)` right after the trap — or a `systemctl stop` right after start — go
/// unnoticed.) Once trapped, a signal stays trapped for the life of the process; while no trap
/// wants it, it is dropped, as `SIG_IGN` did before. Unlike `SIG_IGN`, a handler is reset by
/// `exec`, so programs the commands start (`pair --command`) get the default dispositions.
package final class SignalTrap: Sendable {
    private let id: UInt64

    /// - Parameter handler: called on `queue` with the signal number, every time one arrives.
    package init(_ signals: [Int32] = [SIGINT, SIGTERM], queue: DispatchQueue = .main,
                 handler: @escaping @Sendable (Int32) -> Void) {
        id = SignalRouter.shared.add(SignalRouter.Route(signals: signals, queue: queue, handler: handler))
    }

    deinit { SignalRouter.shared.remove(id) }
}

/// The process's one signal pipe and the traps listening to it.
///
/// Lists: a process traps a few signals.
final class SignalRouter: Sendable {
    struct Route: Sendable {
        let signals: [Int32]
        let queue: DispatchQueue
        let handler: @Sendable (Int32) -> Void
    }

    private struct State {
        var routes: [(id: UInt64, route: Route)] = []
        var nextID: UInt64 = 0
        var installed: [Int32] = []
    }

    static let shared = SignalRouter()

    private let state = Mutex(State())

    private init() {
        var ends: [Int32] = [-1, -1]
        // The write end is non-blocking: the handler never waits on a full pipe (64 KiB of
        // pending signals); the drain thread blocks on the read end.
        guard pipe(&ends) == 0 else {
            fatalError("nfctap: cannot create the signal pipe: \(String(cString: strerror(errno)))")
        }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        signalPipeWriteEnd.store(ends[1], ordering: .releasing)
        let readEnd = ends[0]
        let drain = Thread { SignalRouter.shared.drain(readEnd) }
        drain.name = "nfctap.signals"
        drain.start()
    }

    /// Registers `route` and installs the handler for signals not trapped before; returns its id.
    func add(_ route: Route) -> UInt64 {
        state.withLock { s in
            s.nextID += 1
            s.routes.append((s.nextID, route))
            for number in route.signals where !s.installed.contains(number) {
                var action = sigaction()
                action.__sigaction_handler.sa_handler = forwardSignalToPipe
                sigemptyset(&action.sa_mask)
                action.sa_flags = SA_RESTART
                if sigaction(number, &action, nil) == 0 { s.installed.append(number) }
            }
            // The drain thread unblocks what is trapped now (see `drain`).
            var request: UInt8 = Self.unblockRequest
            _ = write(signalPipeWriteEnd.load(ordering: .acquiring), &request, 1)
            return s.nextID
        }
    }

    /// A byte on the pipe that is no signal: "unblock the trapped signals on the drain thread".
    private static let unblockRequest: UInt8 = 0

    func remove(_ id: UInt64) {
        state.withLock { $0.routes.removeAll { $0.id == id } }
    }

    /// The drain thread, for the life of the process: hands every signal read to the routes that
    /// want it, on their queues.
    private func drain(_ fd: Int32) -> Never {
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            guard let count = try? bytes.withUnsafeMutableBytes({ try FileDescriptor(rawValue: fd).read(into: $0) }),
                  count > 0 else { continue }
            for byte in bytes[..<count] {
                guard byte != Self.unblockRequest else {
                    unblockTrapped()
                    continue
                }
                let number = Int32(byte)
                let routes = state.withLock { s in s.routes.map(\.route).filter { $0.signals.contains(number) } }
                for route in routes { route.queue.async { route.handler(number) } }
            }
        }
    }
}

extension SignalRouter {
    /// A process may start with signals blocked (a mask inherited from the program that started
    /// it, e.g. one spawning from a dispatch worker thread, which blocks them all): the drain
    /// thread unblocks the trapped signals for itself, so they always reach the handler. Only
    /// those: taking every signal here changed how others (SIGTTOU, SIGHUP of a pty libnfc opened)
    /// reached the process.
    fileprivate func unblockTrapped() {
        var set = sigset_t()
        sigemptyset(&set)
        for number in state.withLock({ $0.installed }) { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}

/// The pipe's write end, read by the signal handler (an atomic load is async-signal-safe).
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// The signal handler: only async-signal-safe calls (write(2)); errno is kept for the interrupted code.
private func forwardSignalToPipe(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd.load(ordering: .acquiring), &byte, 1)
    errno = saved
}
