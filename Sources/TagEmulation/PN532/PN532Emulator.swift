import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A PN532 NFC controller on a pseudo-terminal, for libnfc's `pn532_uart` driver
/// (docs/tags-and-readers.md §5): `LIBNFC_DEVICE=pn532_uart:<path>` then `nfc-list`,
/// `nfc-mfultralight`, or the project's `LibNFCBackend`.
///
/// The emulator runs on its own thread from `start()` to `stop()`; the tag in the field can be
/// swapped or removed at any time; every frame that reaches the tag goes through `plan`.
/// Clients may close and reopen the port. After `stop()`, `start()` opens a new pseudo-terminal;
/// with `linkPath` the same path then points at it (a reader that was unplugged and plugged back).
public final class PN532Emulator: Sendable {
    public let plan: FaultPlan
    /// A symlink kept pointing at the current pseudo-terminal, if given.
    public let linkPath: String?

    private struct State {
        var chip: PN532Chip
        var terminal: PseudoTerminal?
        var thread: Thread?
        var wakePipe: [Int32] = [-1, -1]
        var finished: DispatchSemaphore?
        var framesReceived = 0
        var commandLog: [[UInt8]] = []
    }

    private let state: Mutex<State>

    /// - Parameters:
    ///   - tag: the tag in the field at start, or nil for an empty field.
    ///   - plan: latency, leave-field and faults for tag exchanges.
    ///   - linkPath: optional stable path (a symlink to the pty) for clients to open.
    public init(tag: VirtualTag?, plan: FaultPlan = FaultPlan(), linkPath: String? = nil) {
        self.plan = plan
        self.linkPath = linkPath
        self.state = Mutex(State(chip: PN532Chip(tag: tag, plan: plan)))
    }

    deinit { stop() }

    /// The device path clients open: `linkPath` when given, else the `/dev/pts/N` slave.
    /// nil when stopped.
    public var path: String? {
        state.withLock { $0.terminal == nil ? nil : (linkPath ?? $0.terminal?.path) }
    }

    /// libnfc's connstring for this emulator, e.g. `pn532_uart:/dev/pts/4`.
    public var connstring: String? { path.map { "pn532_uart:\($0)" } }

    /// The tag in the field (nil: empty field). Setting it releases the previous one.
    public var tag: VirtualTag? {
        get { state.withLock { $0.chip.tag } }
        set { state.withLock { $0.chip.setTag(newValue) } }
    }

    /// Information frames received from the host since start (every PN532 command).
    public var framesReceived: Int { state.withLock { $0.framesReceived } }

    /// The PN532 commands received (command code + data), in order.
    public var commandLog: [[UInt8]] { state.withLock { $0.commandLog } }

    /// Forgets the received-frame count and command log.
    public func resetCounters() {
        state.withLock {
            $0.framesReceived = 0
            $0.commandLog = []
        }
    }

    /// Opens a pseudo-terminal and starts serving it. Returns the path clients open.
    /// - Throws: `PN532EmulatorError`.
    @discardableResult
    public func start() throws -> String {
        try state.withLock { state in
            guard state.terminal == nil else { throw PN532EmulatorError.alreadyRunning }
            let pty = try PseudoTerminal()
            if let linkPath {
                unlink(linkPath)
                guard symlink(pty.path, linkPath) == 0 else {
                    let code = errno
                    pty.close()
                    throw PN532EmulatorError.link(linkPath, code)
                }
            }
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else {
                let code = errno
                pty.close()
                throw PN532EmulatorError.pseudoTerminal("pipe", code)
            }
            state.wakePipe = fds
            state.terminal = pty
            // A fresh chip state each start (a power cycle), same tag and plan.
            state.chip = PN532Chip(tag: state.chip.tag, plan: plan)
            let done = DispatchSemaphore(value: 0)
            state.finished = done
            let wakeRead = fds[0]
            let t = Thread { [self] in
                self.serve(pty, wake: wakeRead)
                done.signal()
            }
            t.name = "PN532Emulator"
            state.thread = t
            t.start()
            return linkPath ?? pty.path
        }
    }

    /// Stops serving and closes the pseudo-terminal (clients see the device vanish). Idempotent.
    public func stop() {
        let (pty, done, fds): (PseudoTerminal?, DispatchSemaphore?, [Int32]) = state.withLock { state in
            defer {
                state.terminal = nil
                state.thread = nil
                state.finished = nil
                state.wakePipe = [-1, -1]
            }
            return (state.terminal, state.finished, state.wakePipe)
        }
        guard let pty else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(fds[1], &byte, 1)
        done?.wait()
        pty.close()
        Glibc.close(fds[0])
        Glibc.close(fds[1])
        if let linkPath { unlink(linkPath) }
    }

    // MARK: - The serving thread

    private func serve(_ pty: PseudoTerminal, wake: Int32) {
        // The OS thread name (pthread_setname_np is not visible from Swift's Glibc module).
        try? "PN532Emulator".write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
        var decoder = PN532FrameDecoder()
        var lastReply: [UInt8] = []
        while true {
            let pending = state.withLock { $0.chip.hasPendingPoll }
            var fds = [pollfd(fd: pty.master, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            // While InAutoPoll waits for a tag, look again every 20 ms; otherwise sleep until input.
            let ready = poll(&fds, 2, pending ? 20 : -1)
            if ready < 0 && errno != EINTR { return }
            if fds[1].revents != 0 { return }
            if fds[0].revents & Int16(POLLIN) != 0 {
                decoder.append(pty.read())
            } else if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 {
                // Should not happen while the slave is held open; avoid spinning if it does.
                usleep(20_000)
            }
            while let event = decoder.next() {
                switch event {
                case let .information(tfi, payload):
                    state.withLock {
                        $0.framesReceived += 1
                        $0.commandLog.append(payload)
                    }
                    pty.write(PN532Frame.ack)
                    guard tfi == PN532Frame.hostToChip else {
                        lastReply = PN532Frame.syntaxError
                        pty.write(lastReply)
                        continue
                    }
                    // The tag exchange (with its latency) runs outside the lock so tests can
                    // swap the tag meanwhile; the chip itself is only used from this thread.
                    let outcome = state.withLock { $0.chip }.handle(payload)
                    switch outcome {
                    case let .reply(answer):
                        lastReply = PN532Frame.encode(tfi: PN532Frame.chipToHost, answer)
                        pty.write(lastReply)
                    case .syntaxError:
                        lastReply = PN532Frame.syntaxError
                        pty.write(lastReply)
                    case .pending:
                        break
                    }
                case .ack:
                    // The host aborts the running command (libnfc's nfc_abort_command).
                    state.withLock { $0.chip }.abortPending()
                case .nack:
                    // The host asks for the last answer again.
                    if !lastReply.isEmpty { pty.write(lastReply) }
                case .corrupt:
                    // A real PN532 ignores a frame with bad checksums; the host times out.
                    break
                }
            }
            if let answer = state.withLock({ $0.chip }).pollPending() {
                lastReply = PN532Frame.encode(tfi: PN532Frame.chipToHost, answer)
                pty.write(lastReply)
            }
        }
    }
}
