import Foundation
import RecordOutput
import SystemPackage

/// Every file the forwarder opens (the outbox, its rotated predecessors, `<file>.fleet-position`,
/// its `.tmp`, `<file>.fleet-lock`, the CA file) goes through here: never through a symbolic link
/// (`O_NOFOLLOW`), never blocking on a FIFO or device (`O_NONBLOCK` while opening), and only a
/// regular file is kept (`fstat`). docs/fleet.md: files.
enum SafeFile {
    /// Opens `path` read-only. nil when it does not exist.
    /// - Throws: `FleetError.notOwnFile` for a symbolic link, FIFO, device, socket or directory;
    ///   `FleetError.io` for other failures.
    static func openForReading(_ path: String) throws -> (fd: Int32, info: stat)? {
        try open(path, flags: O_RDONLY)
    }

    /// Opens `path` with `flags` (plus `O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC`), checks it is a
    /// regular file, then makes it blocking again. nil when it does not exist (and `O_CREAT` is not in `flags`).
    static func open(_ path: String, flags: Int32, mode: mode_t = 0o640) throws -> (fd: Int32, info: stat)? {
        let fd = Glibc.open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            if code == ELOOP || code == EMLINK { throw FleetError.notOwnFile(path: path, kind: "a symbolic link") }
            var info = stat()
            if lstat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
                throw FleetError.notOwnFile(path: path, kind: kind(info.st_mode))
            }
            throw FleetError.io(operation: "open", path: path, errno: code)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw FleetError.io(operation: "stat", path: path, errno: code)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw FleetError.notOwnFile(path: path, kind: kind(info.st_mode))
        }
        _ = fcntl(fd, F_SETFL, flags & ~(O_CREAT | O_EXCL | O_TRUNC))
        return (fd, info)
    }

    /// What `path` is without following it (nil: nothing there).
    static func lstatKind(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    /// Replaces `path` with `data` durably: a temporary file `<path>.tmp` in the same directory
    /// (created with `O_EXCL | O_NOFOLLOW`: a stale regular one of ours is removed first, anything
    /// else there is refused and left alone), fsync, rename over the old one, fsync of the
    /// directory. A crash leaves either the old or the new content.
    /// - Throws: `FleetError.io`, `FleetError.notOwnFile`.
    static func replace(_ path: String, with data: [UInt8]) throws {
        let temporary = path + ".tmp"
        if let kind = lstatKind(temporary) {
            guard kind == S_IFREG else { throw FleetError.notOwnFile(path: temporary, kind: Self.kind(kind)) }
            unlink(temporary)
        }
        if let kind = lstatKind(path), kind != S_IFREG {
            throw FleetError.notOwnFile(path: path, kind: Self.kind(kind))
        }
        guard let (fd, _) = try open(temporary, flags: O_WRONLY | O_CREAT | O_EXCL) else {
            throw FleetError.io(operation: "create", path: temporary, errno: ENOENT)
        }
        var ok = (try? FileDescriptor(rawValue: fd).writeAll(data)) != nil
        if ok, fsync(fd) != 0 { ok = false }
        let code = errno
        close(fd)
        guard ok else { unlink(temporary); throw FleetError.io(operation: "write", path: temporary, errno: code) }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw FleetError.io(operation: "rename to", path: path, errno: code)
        }
        let directory = (path as NSString).deletingLastPathComponent
        let dfd = Glibc.open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            _ = fsync(dfd)
            close(dfd)
        }
    }

    static func kind(_ mode: mode_t) -> String { DurableRecordFile.kind(mode) }
}
