import Foundation
#if canImport(Glibc)
import Glibc
import Synchronization
#endif

/// The record file `inventory` and `kiosk` append to: one writer, one promise.
///
/// - Opening never follows a symbolic link (`O_NOFOLLOW`) and refuses anything but a regular
///   file (a FIFO, device or directory): `-` means stdout.
/// - An existing non-empty file must be recognisably this tool's records (every complete line
///   a record of the format; CSV: our header first) *before* anything is changed; otherwise it is
///   refused and left byte for byte as it was. Only then is a torn last record (a write cut short
///   by a crash or power cut, never confirmed) cut off.
/// - An exclusive open-file-description lock (`F_OFD_SETLK`) is held on the file; a second
///   writer (another process, or another descriptor in this one) is refused at once, naming the
///   holder's PID (`F_GETLK` on a byte it also locks the traditional way). While a record is being
///   written and synced, the append byte is locked too: readers (the fleet forwarder) only take
///   what is confirmed (`DurableRecordFile+Locks.swift`).
/// - `append` writes the whole record, then `fdatasync`s it: when it returns, the record is on
///   disk. When writing or syncing fails (ENOSPC, EIO, EFBIG) the file is cut back to its length
///   before the append and the error is thrown, so the caller can show red.
/// - Before each append the path is checked to still name the open file (not deleted: `st_nlink`
///   > 0; not renamed or replaced: same device and inode). If not, the path is opened again with
///   the same checks (a new file is created), so records never go to an unlinked inode.
/// - `reopen()` does the same on demand: logrotate's SIGHUP convention.
// @unchecked: `warn`, the caller's closure, need not be Sendable; it is called only with `handle` locked.
public final class DurableRecordFile: @unchecked Sendable {

    /// The file, or nil for stdout.
    public let path: String?
    public let format: RecordFileFormat
    /// Bytes of a torn record cut off at the first opening.
    public let discardedBytes: Int
    /// Complete records the file held when first opened (0 for stdout).
    public let existingRecords: Int
    /// The file did not exist and was created.
    public let created: Bool

    /// What users see as the destination.
    public var displayName: String { path ?? "stdout" }

    private let calls: FileCalls
    private let mode: mode_t
    private let warn: (String) -> Void
    private let isRegularFile: Bool

    /// The open descriptor and what it is, behind one lock.
    private struct Handle {
        var fd: Int32
        var device: dev_t = 0
        var inode: ino_t = 0
        var closed = false
        var syncsEachRecord = true
    }

    private let handle: Mutex<Handle>

    /// `fdatasync` after each append (the default; the kiosk's `"sync": false` turns it off, and
    /// a record is then on disk only when the kernel writes it back).
    public var syncsEachRecord: Bool {
        get { handle.withLock { $0.syncsEachRecord } }
        set { handle.withLock { $0.syncsEachRecord = newValue } }
    }

    /// Opens (or creates with `mode`) `path` for appending records.
    /// - Parameters:
    ///   - warn: told when a torn record is cut off or the file is opened again.
    ///   - calls: the system calls of `append` (tests inject failures).
    /// - Throws: `RecordFileError`.
    public init(path: String, format: RecordFileFormat, mode: mode_t = 0o644, calls: FileCalls = .system,
                warn: @escaping (String) -> Void = { _ in }) throws {
        self.path = path
        self.format = format
        self.mode = mode
        self.calls = calls
        self.warn = warn
        // A file size limit (RLIMIT_FSIZE) must be an error to roll back (EFBIG), not a kill.
        signal(SIGXFSZ, SIG_IGN)
        let opened = try Self.open(path: path, format: format, mode: mode, warn: warn)
        handle = Mutex(Handle(fd: opened.fd, device: opened.device, inode: opened.inode))
        created = opened.created
        discardedBytes = opened.discarded
        existingRecords = opened.records
        isRegularFile = true
    }

    /// Records to stdout, written as they come (a CSV header first, unless stdout is a non-empty
    /// regular file, as with `>>`). Stdout is whatever the caller made it: `-` means it.
    /// - Throws: `RecordFileError.io` when stdout cannot be written.
    public init(standardOutput format: RecordFileFormat, calls: FileCalls = .system) throws {
        path = nil
        self.format = format
        self.mode = 0
        self.calls = calls
        self.warn = { _ in }
        handle = Mutex(Handle(fd: STDOUT_FILENO))
        discardedBytes = 0
        existingRecords = 0
        created = false
        var info = stat()
        isRegularFile = fstat(STDOUT_FILENO, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        if !(isRegularFile && info.st_size > 0), let header = format.header { try append(header) }
    }

    deinit { close() }

    /// Closes the file (stdout stays open). Later appends fail with EBADF.
    public func close() {
        handle.withLock { handle in
            guard !handle.closed else { return }
            handle.closed = true
            if path != nil { _ = Glibc.close(handle.fd) }
        }
    }

    /// Appends `text` (whole records, terminators included) and syncs it before returning.
    /// - Throws: `RecordFileError`: `.io` for a failed write or sync (the file is then back at
    ///   its length before this call), or whatever opening the path again throws when it no
    ///   longer names the open file.
    public func append(_ text: String) throws {
        try handle.withLock { handle in
            guard !handle.closed else { throw RecordFileError.io(operation: "writing to", path: displayName, errno: EBADF) }
            if path != nil { try followPath(&handle) }
            guard isRegularFile else { return try write(Array(text.utf8), to: handle) }
            Self.beginAppend(handle.fd)
            defer { Self.endAppend(handle.fd) }
            try write(Array(text.utf8), to: handle)
        }
    }

    /// Opens the path again if it no longer names the open file (logrotate moved it away, or it
    /// was deleted): SIGHUP's job. Does nothing when it still does, or for stdout.
    /// - Throws: `RecordFileError` from opening; the old file stays in use then.
    public func reopen() throws {
        try handle.withLock { handle in
            guard !handle.closed, path != nil else { return }
            try followPath(&handle)
        }
    }

    // MARK: Internals (with `handle` locked)

    /// Keeps writing to the file the path names: opens it again when the open file was deleted,
    /// renamed or replaced.
    private func followPath(_ handle: inout Handle) throws {
        guard let path else { return }
        var own = stat()
        var named = stat()
        let unlinked = fstat(handle.fd, &own) == 0 && own.st_nlink == 0
        let found = lstat(path, &named) == 0
        if !unlinked, found, named.st_dev == handle.device, named.st_ino == handle.inode { return }
        let reason = unlinked || !found ? "was deleted or moved away" : "now names another file"
        // Opening a second descriptor of the *same* inode would be wrong (closing one drops the
        // process's POSIX lock); the checks above ensure the new one is another inode.
        let opened = try Self.open(path: path, format: format, mode: mode, warn: warn)
        _ = Glibc.close(handle.fd)
        handle.fd = opened.fd
        handle.device = opened.device
        handle.inode = opened.inode
        warn("\(path) \(reason): reopened it\(opened.created ? " (a new file)" : "")")
    }

    private func write(_ bytes: [UInt8], to handle: Handle) throws {
        let fd = handle.fd
        var info = stat()
        let start: off_t = isRegularFile && fstat(fd, &info) == 0 ? info.st_size : 0
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { calls.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                throw rollBack(fd, to: start, after: "writing to", errno: code)
            }
            written += n
        }
        if handle.syncsEachRecord, calls.sync(fd) != 0 {
            let code = errno
            // A terminal or a pipe (stdout) cannot be synced: nothing to wait for.
            if isRegularFile || !(code == EINVAL || code == EROFS || code == ENOTSUP) {
                throw rollBack(fd, to: start, after: "syncing", errno: code)
            }
        }
    }

    /// Cuts a regular file back to `length` (the append never happened) and makes the error.
    private func rollBack(_ fd: Int32, to length: off_t, after operation: String, errno code: Int32) -> RecordFileError {
        guard isRegularFile else { return .io(operation: operation, path: displayName, errno: code) }
        if calls.truncate(fd, length) != 0 || calls.sync(fd) != 0 {
            let second = errno
            return .io(operation: operation + " (and then cutting back the partial record: \(String(cString: strerror(second))))",
                       path: displayName, errno: code)
        }
        return .io(operation: operation, path: displayName, errno: code)
    }
}
