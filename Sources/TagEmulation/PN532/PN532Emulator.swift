import Foundation
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
public final class PN532Emulator: @unchecked Sendable {
    public let plan: FaultPlan
    /// A symlink kept pointing at the current pseudo-terminal, if given.
    public let linkPath: String?

    private let lock = NSLock()
    private var chip: PN532Chip
    private var terminal: PseudoTerminal?
    private var thread: Thread?
    private var wakePipe: [Int32] = [-1, -1]
    private var finished: DispatchSemaphore?
    private var _framesReceived = 0
    private var _commandLog: [[UInt8]] = []

    /// - Parameters:
    ///   - tag: the tag in the field at start, or nil for an empty field.
    ///   - plan: latency, leave-field and faults for tag exchanges.
    ///   - linkPath: optional stable path (a symlink to the pty) for clients to open.
    public init(tag: VirtualTag?, plan: FaultPlan = FaultPlan(), linkPath: String? = nil) {
        self.plan = plan
        self.linkPath = linkPath
        self.chip = PN532Chip(tag: tag, plan: plan)
    }

    deinit { stop() }

    /// The device path clients open: `linkPath` when given, else the `/dev/pts/N` slave.
    /// nil when stopped.
    public var path: String? {
        lock.withLock { terminal == nil ? nil : (linkPath ?? terminal?.path) }
    }

    /// libnfc's connstring for this emulator, e.g. `pn532_uart:/dev/pts/4`.
    public var connstring: String? { path.map { "pn532_uart:\($0)" } }

    /// The tag in the field (nil: empty field). Setting it releases the previous one.
    public var tag: VirtualTag? {
        get { lock.withLock { chip.tag } }
        set { lock.withLock { chip.setTag(newValue) } }
    }

    /// Information frames received from the host since start (every PN532 command).
    public var framesReceived: Int { lock.withLock { _framesReceived } }

    /// The PN532 commands received (command code + data), in order.
    public var commandLog: [[UInt8]] { lock.withLock { _commandLog } }

    /// Forgets the received-frame count and command log.
    public func resetCounters() {
        lock.withLock {
            _framesReceived = 0
            _commandLog = []
        }
    }

    /// Opens a pseudo-terminal and starts serving it. Returns the path clients open.
    /// - Throws: `PN532EmulatorError`.
    @discardableResult
    public func start() throws -> String {
        try lock.withLock {
            guard terminal == nil else { throw PN532EmulatorError.alreadyRunning }
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
            wakePipe = fds
            terminal = pty
            // A fresh chip state each start (a power cycle), same tag and plan.
            chip = PN532Chip(tag: chip.tag, plan: plan)
            let done = DispatchSemaphore(value: 0)
            finished = done
            let wakeRead = fds[0]
            let t = Thread { [self] in
                self.serve(pty, wake: wakeRead)
                done.signal()
            }
            t.name = "PN532Emulator"
            thread = t
            t.start()
            return linkPath ?? pty.path
        }
    }

    /// Stops serving and closes the pseudo-terminal (clients see the device vanish). Idempotent.
    public func stop() {
        let (pty, done, fds): (PseudoTerminal?, DispatchSemaphore?, [Int32]) = lock.withLock {
            defer {
                terminal = nil
                thread = nil
                finished = nil
                wakePipe = [-1, -1]
            }
            return (terminal, finished, wakePipe)
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
            let pending = lock.withLock { chip.hasPendingPoll }
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
                    lock.withLock {
                        _framesReceived += 1
                        _commandLog.append(payload)
                    }
                    pty.write(PN532Frame.ack)
                    guard tfi == PN532Frame.hostToChip else {
                        lastReply = PN532Frame.syntaxError
                        pty.write(lastReply)
                        continue
                    }
                    // The tag exchange (with its latency) runs outside the lock so tests can
                    // swap the tag meanwhile; the chip itself is only used from this thread.
                    let outcome = lock.withLock { chip }.handle(payload)
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
                    lock.withLock { chip }.abortPending()
                case .nack:
                    // The host asks for the last answer again.
                    if !lastReply.isEmpty { pty.write(lastReply) }
                case .corrupt:
                    // A real PN532 ignores a frame with bad checksums; the host times out.
                    break
                }
            }
            if let answer = lock.withLock({ chip }).pollPending() {
                lastReply = PN532Frame.encode(tfi: PN532Frame.chipToHost, answer)
                pty.write(lastReply)
            }
        }
    }
}
