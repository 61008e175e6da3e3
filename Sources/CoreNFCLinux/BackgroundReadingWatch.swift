import Foundation
import Glibc
import SystemPackage

extension NFCBackgroundReading {
    /// For the agent: notices sessions taking and releasing their hold on `session.lock` without
    /// polling. `flock` itself raises no inotify event, so the hold is announced on the file: a
    /// session touches it (`futimens`, IN_ATTRIB) once its shared lock is granted, and unlocks
    /// before closing it (IN_CLOSE_WRITE) when it ends; a session that dies closes it too. An
    /// inotify watch on `$XDG_RUNTIME_DIR/nfctap/` reports those; `sessionIsActive()` then tests
    /// the lock itself, which stays the truth (events only say "look now").
    ///
    /// The test uses one descriptor kept open, so testing raises no event of its own (an open and
    /// close per test would wake the agent forever). Used on one thread (the agent's loop).
    public final class SessionWatch {
        /// The inotify descriptor (non-blocking): readable when something happened to the directory.
        public let fileDescriptor: Int32
        private let directory: String
        private var lockPath: String { directory + "/session.lock" }
        private var lockFD: Int32 = -1
        private var watching = false

        /// The file names in the directory whose events matter.
        static let watchedName = "session.lock"
        static let mask = UInt32(IN_ATTRIB | IN_CLOSE_WRITE | IN_CLOSE_NOWRITE | IN_CREATE | IN_DELETE
                                 | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)

        /// nil without a usable `XDG_RUNTIME_DIR` or when inotify is unavailable (e.g. the user's
        /// `max_user_instances` is used up): the agent then tests the lock periodically.
        public init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
            guard let directory = NFCBackgroundReading.directory(environment: environment) else { return nil }
            let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard fd >= 0 else { return nil }
            self.fileDescriptor = fd
            self.directory = directory
            guard addWatch() else {
                close(fd)
                return nil
            }
            reopenIfReplaced()
        }

        deinit {
            if lockFD >= 0 { close(lockFD) }
            close(fileDescriptor)
        }

        private func addWatch() -> Bool {
            watching = inotify_add_watch(fileDescriptor, directory, Self.mask) >= 0
            return watching
        }

        /// Reads every queued event. True when one concerns `session.lock` (or events were lost,
        /// or the directory went away): the caller should test the lock now.
        public func drainEvents() -> Bool {
            var relevant = false
            let size = 4096
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<inotify_event>.alignment)
            defer { buffer.deallocate() }
            while true {
                guard let n = try? FileDescriptor(rawValue: fileDescriptor).read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size)),
                      n > 0 else { break }
                relevant = Self.parse(UnsafeRawBufferPointer(start: buffer, count: n)) { mask, name in
                    if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 { watching = false }
                    return mask & UInt32(IN_Q_OVERFLOW | IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0
                        || name == Self.watchedName
                } || relevant
            }
            return relevant
        }

        /// Walks the `inotify_event` records of one `read` (bounds-checked); true when `isRelevant`
        /// was for any of them.
        static func parse(_ bytes: UnsafeRawBufferPointer, _ isRelevant: (UInt32, String) -> Bool) -> Bool {
            let header = MemoryLayout<inotify_event>.size  // wd, mask, cookie, len: 16 bytes
            var offset = 0
            var relevant = false
            while offset + header <= bytes.count {
                let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                guard offset + header + length <= bytes.count else { break }
                let nameBytes = bytes[(offset + header)..<(offset + header + length)].prefix { $0 != 0 }
                if isRelevant(mask, String(decoding: nameBytes, as: UTF8.self)) { relevant = true }
                offset += header + length
            }
            return relevant
        }

        /// Whether any process holds `session.lock` (a non-blocking exclusive test, dropped at once).
        public func sessionIsActive() -> Bool {
            if !watching { _ = addWatch() }  // the directory was removed and made again
            reopenIfReplaced()
            guard lockFD >= 0 else { return false }
            if flock(lockFD, LOCK_EX | LOCK_NB) == 0 {
                flock(lockFD, LOCK_UN)
                return false
            }
            return errno == EWOULDBLOCK
        }

        /// Keeps `lockFD` on the file now at the path: reopened only when it was deleted or
        /// replaced (so the agent's own open does not feed back into more events).
        private func reopenIfReplaced() {
            var atPath = stat()
            var held = stat()
            if lockFD >= 0, lstat(lockPath, &atPath) == 0, fstat(lockFD, &held) == 0,
               atPath.st_ino == held.st_ino, atPath.st_dev == held.st_dev { return }
            if lockFD >= 0 { close(lockFD) }
            lockFD = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        }
    }
}
