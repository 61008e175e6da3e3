import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where `inventory` records go: a file opened for appending, where every record is written and
/// `fsync`ed before the tap is confirmed, or stdout (written unbuffered, one record per write).
///
/// Opening an existing file cuts off a trailing partial record (a write torn by a crash or power
/// cut, never confirmed) and refuses a file that is not an inventory in the same format.
final class InventoryOutput {
    /// The file, or nil for stdout.
    let path: String?
    let format: InventoryFormat
    /// The file did not exist and was created (its directory was fsync'ed).
    private(set) var created = false
    /// Bytes of an unconfirmed partial record cut off at opening.
    private(set) var discardedBytes = 0
    /// Complete records the file held when it was opened (0 for stdout): the next record's
    /// sequence number follows them.
    private(set) var existingRecords = 0

    private let fd: Int32
    private let isRegularFile: Bool
    /// Bytes of complete records in a regular file: where a failed write is cut back to.
    private var length: off_t = 0

    /// What users see as the destination.
    var displayName: String { path ?? "stdout" }

    /// Opens (or creates) `path` for appending records.
    /// - Parameter warn: told when a partial record is cut off.
    /// - Throws: `InventoryOutputError`: `.directoryMissing`, `.notAnInventory`, `.io`.
    init(path: String, format: InventoryFormat, warn: (String) -> Void) throws {
        self.path = path
        self.format = format
        let directory = Self.directory(of: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw InventoryOutputError.directoryMissing(path: path, directory: directory)
        }
        var descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor >= 0 {
            created = true
        } else if errno == EEXIST {
            descriptor = open(path, O_RDWR | O_APPEND | O_CLOEXEC)
        }
        guard descriptor >= 0 else { throw InventoryOutputError.io(operation: "opening", path: path, errno: errno) }
        fd = descriptor
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw InventoryOutputError.io(operation: "examining", path: path, errno: code)
        }
        isRegularFile = (info.st_mode & S_IFMT) == S_IFREG
        do {
            if created {
                // A new directory entry survives a power cut only once the directory is synced.
                try Self.syncDirectory(directory)
            } else if isRegularFile {
                try repair(size: Int(info.st_size), warn: warn)
            }
            if length == 0, let header = format.header { try append(header) }
        } catch {
            close(fd)
            throw error
        }
    }

    /// Writes records to stdout (a CSV header first, unless stdout is a non-empty file).
    /// - Throws: `InventoryOutputError.io` when stdout cannot be written.
    init(standardOutputWith format: InventoryFormat) throws {
        path = nil
        self.format = format
        fd = STDOUT_FILENO
        var info = stat()
        isRegularFile = fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        if isRegularFile { length = info.st_size }
        // `>>` onto a file that already has records: no second header.
        if length == 0, let header = format.header { try append(header) }
    }

    deinit {
        if path != nil { close(fd) }
    }

    /// Writes `text` (one or more whole records) and syncs it to the device before returning.
    /// On failure a regular file is cut back to its last complete record.
    /// - Throws: `InventoryOutputError.io` for `write` or `fsync` (disk full, I/O error).
    func append(_ text: String) throws {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in
                write(fd, buffer.baseAddress! + written, buffer.count - written)
            }
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                rollBack()
                throw InventoryOutputError.io(operation: "writing to", path: displayName, errno: code)
            }
            written += n
        }
        if fsync(fd) != 0 {
            let code = errno
            // A terminal or a pipe cannot be synced: nothing to wait for.
            let unsyncable = !isRegularFile && (code == EINVAL || code == EROFS || code == ENOTSUP)
            if !unsyncable {
                rollBack()
                throw InventoryOutputError.io(operation: "syncing", path: displayName, errno: code)
            }
        }
        length += off_t(written)
    }

    private func rollBack() {
        if isRegularFile { _ = ftruncate(fd, length) }
    }

    /// Cuts a trailing partial record, then checks the file holds records of this format.
    private func repair(size: Int, warn: (String) -> Void) throws {
        let content = try readAll(size: size)
        let complete = Self.completeLength(of: content, format: format)
        if complete < content.count {
            discardedBytes = content.count - complete
            warn("\(displayName) ends with a partial record (\(discardedBytes) bytes, never confirmed: a crash or power cut during a write); cutting it off before appending")
            guard ftruncate(fd, off_t(complete)) == 0, fsync(fd) == 0 else {
                throw InventoryOutputError.io(operation: "truncating", path: displayName, errno: errno)
            }
        }
        length = off_t(complete)
        if complete > 0, !Self.looksLikeInventory(content[..<complete], format: format) {
            throw InventoryOutputError.notAnInventory(path: displayName, format: format)
        }
        existingRecords = Self.recordCount(in: content[..<complete], format: format)
    }

    private func readAll(size: Int) throws -> [UInt8] {
        var content = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let n = content.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress! + offset, size - offset, off_t(offset))
            }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw InventoryOutputError.io(operation: "reading", path: displayName, errno: errno) }
            if n == 0 { break }  // shrank meanwhile
            offset += n
        }
        return Array(content[..<offset])
    }

    /// Bytes up to the end of the last complete record. JSON Lines: the last LF (JSON escapes
    /// every LF inside a record). CSV: the last LF outside quotes; with RFC 4180 quoting an LF ends
    /// a record exactly when an even number of `"` precede it.
    static func completeLength(of content: [UInt8], format: InventoryFormat) -> Int {
        switch format {
        case .jsonl:
            return content.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        case .csv:
            var insideQuotes = false
            var end = 0
            for (i, byte) in content.enumerated() {
                if byte == 0x22 { insideQuotes.toggle() } else if byte == 0x0A, !insideQuotes { end = i + 1 }
            }
            return end
        }
    }

    /// Records in complete content: its record ends (LFs outside quotes), less the CSV header.
    static func recordCount(in content: ArraySlice<UInt8>, format: InventoryFormat) -> Int {
        var insideQuotes = false
        var ends = 0
        for byte in content {
            if format == .csv, byte == 0x22 { insideQuotes.toggle() } else if byte == 0x0A, !insideQuotes { ends += 1 }
        }
        return format == .csv ? max(0, ends - 1) : ends
    }

    /// JSON Lines: the first record is an object. CSV: the first line is this project's header.
    static func looksLikeInventory(_ content: ArraySlice<UInt8>, format: InventoryFormat) -> Bool {
        switch format {
        case .jsonl:
            return content.first == UInt8(ascii: "{")
        case .csv:
            guard let header = format.header else { return false }
            return content.starts(with: Array(header.utf8))
        }
    }

    static func directory(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    private static func syncDirectory(_ directory: String) throws {
        let dfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0 else { throw InventoryOutputError.io(operation: "opening directory", path: directory, errno: errno) }
        defer { close(dfd) }
        guard fsync(dfd) == 0 else { throw InventoryOutputError.io(operation: "syncing directory", path: directory, errno: errno) }
    }
}
