import CoreNFCLinux
import Foundation
import Glibc
import RecordOutput
import Synchronization

/// Tag reports from the session queue, taken by the agent's bus thread; and the stop request.
/// Both make `wakeDescriptor` (a pipe's read end) readable, so the bus thread's wait ends at once.
package final class AgentInbox: Sendable {
    private let state = Mutex<(reports: [NFCTagReport], stop: Bool)>(([], false))
    /// Readable while something was posted since the last `clearWakeup()`; -1 without a pipe.
    package let wakeDescriptor: Int32
    private let wakeWriter: Int32
    /// Readable once a stop was requested, and from then on (never cleared): a D-Bus call waiting
    /// for a peer that does not answer gives up on it (`DBusConnection.call`'s `cancelDescriptor`).
    package let stopDescriptor: Int32
    private let stopWriter: Int32

    package init() {
        (wakeDescriptor, wakeWriter) = Self.makePipe()
        (stopDescriptor, stopWriter) = Self.makePipe()
    }

    private static func makePipe() -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for fd in ends { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        return (ends[0], ends[1])
    }

    deinit {
        for fd in [wakeDescriptor, wakeWriter, stopDescriptor, stopWriter] where fd >= 0 { close(fd) }
    }

    package func post(_ report: NFCTagReport) {
        state.withLock { $0.reports.append(report) }
        wake()
    }
    package func take() -> [NFCTagReport] { state.withLock { s in defer { s.reports = [] }; return s.reports } }
    package func requestStop() {
        state.withLock { $0.stop = true }
        var byte: UInt8 = 1
        if stopWriter >= 0 { _ = write(stopWriter, &byte, 1) }
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        if wakeWriter >= 0 { _ = write(wakeWriter, &byte, 1) }  // a full pipe is readable already
    }

    /// Called before `take()`: a post after it wakes the next wait again.
    package func clearWakeup() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while wakeDescriptor >= 0, read(wakeDescriptor, &bytes, bytes.count) > 0 {}
    }

    package var hasWork: Bool { state.withLock { !$0.reports.isEmpty || $0.stop } }
    package var stopRequested: Bool { state.withLock { $0.stop } }
}

/// The agent's machine output: one JSON object per line on stdout (the journal keeps it under
/// systemd). Every line has `"event"`: started, reading, paused, resumed, tap, unread, skipped, action, closed, paired, server, error.
package enum AgentEvents {
    /// Serializes whole lines on stdout.
    private static let lock = Mutex(())

    package static func emit(_ event: String, _ fields: [(String, JSONValue)] = []) {
        let text = JSONValue.object([("event", .string(event))] + fields).jsonText
        lock.withLock { _ in
            Stdout.line(text)
            StandardOutput.flush()
        }
    }
}
