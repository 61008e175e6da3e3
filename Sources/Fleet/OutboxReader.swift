import Foundation

/// Reads complete, newline-terminated records from a record file, from a byte offset on. Never
/// writes the file. A partial last line (a write in progress, or cut short and later rolled back
/// by the writer) is not returned until its newline is there.
public final class OutboxReader {
    public let path: String
    public let descriptor: Int32
    public let device: UInt64
    public let inode: UInt64
    /// Where the next record starts.
    public private(set) var offset: UInt64
    private var buffer: [UInt8] = []
    private var bufferStart: UInt64 = 0
    /// Longest record accepted (a longer line is returned in pieces of this size).
    public static let maxRecordBytes = 1 << 20

    /// - Throws: `FleetError.io` when the file cannot be opened.
    public init(path: String, offset: UInt64 = 0) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FleetError.io(operation: "open", path: path, errno: errno) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let code = errno
            close(fd)
            throw FleetError.io(operation: "stat", path: path, errno: code)
        }
        self.path = path
        descriptor = fd
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        self.offset = offset
        bufferStart = offset
    }

    deinit { close(descriptor) }

    /// The file's size now.
    public var size: UInt64 {
        var st = stat()
        return fstat(descriptor, &st) == 0 ? UInt64(st.st_size) : 0
    }

    /// Starts reading again at `offset` (after a reconnect: from the last acknowledged record).
    public func rewind(to offset: UInt64) {
        self.offset = offset
        buffer.removeAll(keepingCapacity: true)
        bufferStart = offset
    }

    /// The next complete record (without its newline) and the offset just past it; nil when the
    /// file has no complete record after `offset` yet.
    /// - Throws: `FleetError.io` on a read error.
    public func next() throws -> (record: ArraySlice<UInt8>, end: UInt64)? {
        while true {
            let start = Int(offset - bufferStart)
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let record = buffer[start..<newline]
                offset = bufferStart + UInt64(newline + 1)
                return (record, offset)
            }
            if buffer.count - start >= Self.maxRecordBytes {
                let end = start + Self.maxRecordBytes
                offset = bufferStart + UInt64(end)
                return (buffer[start..<end], offset)
            }
            // Drop consumed bytes, then read more.
            if start > 0 {
                buffer.removeFirst(start)
                bufferStart = offset
            }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let fileOffset = bufferStart + UInt64(buffer.count)
            let n = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(fileOffset)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FleetError.io(operation: "read", path: path, errno: errno)
            }
            if n == 0 {
                // No newline yet: forget the partial line. The writer may still finish it, or
                // roll it back and write another record in its place; either way it is read again.
                buffer.removeAll(keepingCapacity: true)
                bufferStart = offset
                return nil
            }
            buffer += chunk[..<n]
        }
    }
}

extension OutboxReader {
    /// No complete record after `offset` (does not move `offset`).
    func peekEmpty() throws -> Bool {
        let saved = offset
        defer { rewind(to: saved) }
        return try next() == nil
    }
}
