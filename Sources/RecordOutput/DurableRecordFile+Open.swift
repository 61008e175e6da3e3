import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

extension DurableRecordFile {
    struct Opened {
        var fd: Int32
        var device: dev_t
        var inode: ino_t
        var created: Bool
        var discarded: Int
        var records: Int
    }

    /// Opens `path` with every check, in this order: nothing is modified until the file is known
    /// to be ours and locked. Closes the descriptor on any error.
    static func open(path: String, format: RecordFileFormat, mode: mode_t,
                     warn: (String) -> Void) throws -> Opened {
        let directory = Self.directory(of: path)
        var dirInfo = stat()
        guard stat(directory, &dirInfo) == 0, (dirInfo.st_mode & S_IFMT) == S_IFDIR else {
            throw RecordFileError.directoryMissing(path: path, directory: directory)
        }
        // O_NONBLOCK: opening a FIFO or a device must not wait; it is refused below anyway.
        let flags = O_RDWR | O_APPEND | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK
        var created = false
        var fd = Glibc.open(path, flags)
        if fd < 0, errno == ENOENT {
            fd = Glibc.open(path, flags | O_CREAT | O_EXCL, mode)
            if fd >= 0 { created = true } else if errno == EEXIST { fd = Glibc.open(path, flags) }
        }
        guard fd >= 0 else {
            let code = errno
            var info = stat()
            if lstat(path, &info) == 0 {
                switch info.st_mode & S_IFMT {
                case S_IFLNK: throw RecordFileError.symlink(path: path)
                case S_IFDIR: throw RecordFileError.notRegularFile(path: path, kind: "a directory")
                default: break
                }
            }
            throw RecordFileError.io(operation: "opening", path: path, errno: code)
        }
        do {
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw RecordFileError.io(operation: "examining", path: path, errno: errno) }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw RecordFileError.notRegularFile(path: path, kind: kind(info.st_mode))
            }
            _ = fcntl(fd, F_SETFL, O_RDWR | O_APPEND)  // back to blocking writes
            try lockExclusively(fd, path: path)
            var result = Opened(fd: fd, device: info.st_dev, inode: info.st_ino, created: created, discarded: 0, records: 0)
            let scanner = try scan(fd, size: Int(info.st_size), format: format, path: path)
            guard scanner.recognised, scanner.tailIsPlausible else {
                throw RecordFileError.notOurs(path: path, format: format.name)
            }
            result.records = scanner.records
            // Recognised: only now may the file change.
            let complete = scanner.completeLength
            if complete < Int(info.st_size) {
                result.discarded = Int(info.st_size) - complete
                warn("\(path) ends with a partial record (\(result.discarded) bytes, never confirmed: a crash or power cut during a write); cutting it off before appending")
                guard ftruncate(fd, off_t(complete)) == 0, fdatasync(fd) == 0 else {
                    throw RecordFileError.io(operation: "truncating", path: path, errno: errno)
                }
            }
            if complete == 0, let header = format.header {
                let bytes = Array(header.utf8)
                let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                guard n == bytes.count, fdatasync(fd) == 0 else {
                    let code = n < 0 ? errno : ENOSPC
                    _ = ftruncate(fd, 0)
                    throw RecordFileError.io(operation: "writing the header to", path: path, errno: code)
                }
            }
            if created { try syncDirectory(directory) }
            return result
        } catch {
            _ = Glibc.close(fd)
            throw error
        }
    }

    /// Reads the file in chunks through the scanner.
    private static func scan(_ fd: Int32, size: Int, format: RecordFileFormat, path: String) throws -> RecordFileScanner {
        var scanner = RecordFileScanner(format: format)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var offset = 0
        while offset < size, scanner.recognised {
            let n: Int
            do {
                n = try buffer.withUnsafeMutableBytes {
                    try FileDescriptor(rawValue: fd).read(fromAbsoluteOffset: Int64(offset), into: UnsafeMutableRawBufferPointer(rebasing: $0[..<min($0.count, size - offset)]))
                }
            } catch {
                throw RecordFileError.io(operation: "reading", path: path, errno: (error as? Errno)?.rawValue ?? EIO)
            }
            if n == 0 { break }
            scanner.feed(buffer[..<n])
            offset += n
        }
        return scanner
    }

    /// What a file of this mode is, for messages ("a FIFO (named pipe)", "a directory"…).
    public static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFDIR: return "a directory"
        default: return "not a regular file"
        }
    }

    /// The directory part of `path` (`.` for a bare name).
    public static func directory(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    /// A new directory entry survives a power cut only once the directory is synced.
    private static func syncDirectory(_ directory: String) throws {
        let dfd = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0 else { throw RecordFileError.io(operation: "opening directory", path: directory, errno: errno) }
        defer { _ = Glibc.close(dfd) }
        guard fsync(dfd) == 0 else { throw RecordFileError.io(operation: "syncing directory", path: directory, errno: errno) }
    }
}
