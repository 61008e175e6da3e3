#if canImport(Glibc)
import Glibc
#endif

/// The writer's locks (docs/faults.md: one writer per file; docs/fleet.md: confirmation).
///
/// Open file description locks (`F_OFD_*`) belong to the open file, not the process, so closing
/// another descriptor of the file in this process (inventory's forwarder reads it) never drops
/// them, and they conflict with that other descriptor too:
/// - bytes `0 ..< appendByte`: write-locked while the file is open (one writer per file);
/// - byte `appendByte`: write-locked from the start of a record's `write` until its `fdatasync`
///   succeeded or the record was cut back. A reader takes the file's length only while it can
///   read-lock that byte, so it never sees a record the writer has not confirmed.
/// - byte `appendByte + 1`: a traditional (per-process) lock, only so that `F_GETLK` can name the
///   holder's PID to a second writer (OFD locks report none).
extension DurableRecordFile {
    /// The append byte, locked while a record is not yet confirmed (readers: `Fleet.WriterLocks`).
    public static let appendByte: off_t = 1 << 62
    // <fcntl.h>'s F_OFD_GETLK / F_OFD_SETLK / F_OFD_SETLKW (Linux 3.15), not exported without _GNU_SOURCE.
    public static let ofdGetLock: Int32 = 36
    public static let ofdSetLock: Int32 = 37
    static let ofdSetLockWait: Int32 = 38

    static func lockRange(_ type: Int32, start: off_t, length: off_t) -> flock {
        var request = flock()
        request.l_type = Int16(type)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = start
        request.l_len = length
        return request
    }

    /// Takes the file for this writer; when another holds it, names the holder.
    /// - Throws: `RecordFileError.locked`, `.io`.
    static func lockExclusively(_ fd: Int32, path: String) throws {
        var whole = lockRange(F_WRLCK, start: 0, length: appendByte)
        if fcntl(fd, ofdSetLock, &whole) != 0 {
            let code = errno
            if code == EINVAL {
                // No OFD locks here: a traditional lock on the same range.
                if fcntl(fd, F_SETLK, &whole) == 0 { return }
            }
            let again = errno
            guard again == EAGAIN || again == EACCES else {
                throw RecordFileError.io(operation: "locking", path: path, errno: again)
            }
            throw RecordFileError.locked(path: path, pid: holder(fd))
        }
        var pidByte = lockRange(F_WRLCK, start: appendByte + 1, length: 1)
        _ = fcntl(fd, F_SETLK, &pidByte)
    }

    /// The PID holding the file, when `F_GETLK` can tell.
    private static func holder(_ fd: Int32) -> Int32? {
        for (start, length) in [(appendByte + 1, off_t(1)), (off_t(0), off_t(0))] {
            var probe = lockRange(F_WRLCK, start: start, length: length)
            if fcntl(fd, F_GETLK, &probe) == 0, probe.l_type != Int16(F_UNLCK), probe.l_pid > 0 { return probe.l_pid }
        }
        return nil
    }

    /// Marks an append as in flight (waits for a reader's instant of sharing the byte to pass).
    static func beginAppend(_ fd: Int32) {
        var request = lockRange(F_WRLCK, start: appendByte, length: 1)
        while fcntl(fd, ofdSetLockWait, &request) != 0, errno == EINTR {}
    }

    /// The append is confirmed or cut back.
    static func endAppend(_ fd: Int32) {
        var request = lockRange(F_UNLCK, start: appendByte, length: 1)
        _ = fcntl(fd, ofdSetLock, &request)
    }
}
