import Foundation

/// inotify on the record file: wakes the forwarder as soon as a record is appended (by this
/// process or another), so publishing does not wait for a polling period.
final class FileWatcher {
    private let descriptor: Int32

    init?(path: String) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVE_SELF | IN_DELETE_SELF | IN_ATTRIB) | UInt32(IN_DONT_FOLLOW)
        guard inotify_add_watch(fd, path, mask) >= 0 else {
            close(fd)
            return nil
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Reads and forgets the pending events.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Waits until the file changes or `deadline`.
    func wait(until deadline: ContinuousClock.Instant) {
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { return }
        _ = Self.poll(socket: -1, wantsWrite: false, watcher: self,
                      timeoutMilliseconds: Int32(min(Forwarder.seconds(remaining) * 1000, 1000)) + 1)
    }

    /// Polls the MQTT socket and the file; returns whether the socket is readable / writable.
    static func poll(socket: Int32, wantsWrite: Bool, watcher: FileWatcher?, timeoutMilliseconds: Int32) -> (Bool, Bool) {
        var fds: [pollfd] = []
        if socket >= 0 { fds.append(pollfd(fd: socket, events: Int16(POLLIN) | (wantsWrite ? Int16(POLLOUT) : 0), revents: 0)) }
        if let watcher { fds.append(pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0)) }
        if fds.isEmpty {
            usleep(UInt32(timeoutMilliseconds) * 1000)
            return (false, false)
        }
        let n = fds.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds) }
        if watcher != nil, n > 0, fds.last!.revents != 0 { watcher?.drain() }
        guard socket >= 0, n > 0 else { return (false, wantsWrite) }
        let revents = fds[0].revents
        let readable = revents & Int16(POLLIN | POLLERR | POLLHUP) != 0
        let writable = revents & Int16(POLLOUT) != 0
        return (readable, writable)
    }
}
