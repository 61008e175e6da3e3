import Foundation
import RecordOutput

/// The locks nfctap's record writer (`DurableRecordFile`) holds, as the forwarder reads them
/// (docs/fleet.md: confirmation; the writer's side, and the constants, are `DurableRecordFile+Locks.swift`).
///
/// Open file description locks (`F_OFD_*`): they belong to one open file, so they conflict with
/// another descriptor of the same process too (inventory and its forwarder share a process).
/// - bytes `0 ..< appendByte`, write-locked for as long as a writer has the file open;
/// - byte `appendByte`, write-locked from the start of one record's `write` until its `fdatasync`
///   succeeded or the record was cut back: bytes present while it is free are confirmed.
enum WriterLocks {
    static let appendByte = DurableRecordFile.appendByte
    static let getLock = DurableRecordFile.ofdGetLock
    static let setLock = DurableRecordFile.ofdSetLock

    /// The file's length, taken while sharing the append byte (the writer cannot start an append
    /// meanwhile); nil while an append is in flight. A file system without OFD locks: its length.
    static func confirmedLength(_ fd: Int32) -> UInt64? {
        var lock = flock()
        lock.l_type = Int16(F_RDLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(appendByte)
        lock.l_len = 1
        var locked = true
        if fcntl(fd, setLock, &lock) != 0 {
            if errno == EAGAIN || errno == EACCES { return nil }
            locked = false
        }
        var st = stat()
        let size: UInt64 = fstat(fd, &st) == 0 ? UInt64(st.st_size) : 0
        if locked {
            lock.l_type = Int16(F_UNLCK)
            _ = fcntl(fd, setLock, &lock)
        }
        return size
    }

    /// Whether a writer has the file open (holds its lock on the first byte).
    static func isHeld(_ fd: Int32) -> Bool {
        var lock = flock()
        lock.l_type = Int16(F_RDLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 1
        guard fcntl(fd, getLock, &lock) == 0 else { return false }
        return lock.l_type != Int16(F_UNLCK)
    }
}
