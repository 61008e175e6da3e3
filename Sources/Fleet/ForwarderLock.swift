import Foundation

/// One forwarder per record file: `flock` on `<file>.fleet-lock` (a regular file of ours, opened
/// without following links), held for the forwarder's life, with the holder's PID written in it
/// for the error a second one gets.
final class ForwarderLock {
    let path: String
    private let descriptor: Int32

    /// - Throws: `FleetError.locked` when another forwarder holds it, `FleetError.notOwnFile`
    ///   when the lock path is a symbolic link, FIFO…, `FleetError.io`.
    init(outboxPath: String) throws {
        path = outboxPath + ".fleet-lock"
        guard let (fd, info) = try SafeFile.open(path, flags: O_RDWR | O_CREAT, mode: 0o644) else {
            throw FleetError.io(operation: "create", path: path, errno: ENOENT)
        }
        // It is truncated below: never a hard link to another file, never someone else's.
        guard info.st_nlink == 1, info.st_uid == geteuid() else {
            close(fd)
            throw FleetError.notOwnFile(path: path, kind: info.st_nlink != 1 ? "a hard link to another file" : "owned by another user")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            var text = [UInt8](repeating: 0, count: 16)
            let n = text.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            close(fd)
            guard code == EWOULDBLOCK else { throw FleetError.io(operation: "lock", path: path, errno: code) }
            let pid = n > 0 ? Int32(String(decoding: text[..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) : nil
            throw FleetError.locked(path: outboxPath, pid: pid)
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        descriptor = fd
    }

    deinit { close(descriptor) }
}
