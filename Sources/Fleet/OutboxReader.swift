import Foundation
import SystemPackage

/// One record read from the outbox: its bytes (without the newline) and the offset just past it.
public struct OutboxRecord {
    /// The line; empty when `oversizedLength` is set.
    public var bytes: ArraySlice<UInt8>
    public var end: UInt64
    /// Set when the line is longer than `OutboxReader.maxRecordBytes`: it is not read, only skipped whole.
    public var oversizedLength: UInt64?
}

/// Reads complete, newline-terminated records that the writer has confirmed from a record file,
/// from a byte offset on. Never writes the file.
///
/// - Only what the writer confirmed is read: nfctap's writer holds a lock on the append byte
///   (`WriterLocks.appendByte`) from the start of a record's `write` until its `fdatasync`
///   succeeded or the record was cut back, so the reader takes the file's length only while it can
///   share that byte (docs/fleet.md: confirmation). A file written by another program (no locks)
///   counts as confirmed up to its last newline.
/// - A partial last line is not returned until its newline is there.
/// - A line longer than `maxRecordBytes` is skipped whole and reported as oversized, never in pieces.
public final class OutboxReader {
    public let path: String
    public let descriptor: Int32
    public let device: UInt64
    public let inode: UInt64
    /// Where the next record starts.
    public private(set) var offset: UInt64
    private var buffer: [UInt8] = []
    private var bufferStart: UInt64 = 0
    /// Bytes known confirmed (the file's length when the writer last had no append in flight).
    private var confirmed: UInt64 = 0
    /// The last look found the writer in the middle of an append (poll again soon).
    public private(set) var writerBusy = false
    /// Longest record published (1 MiB); a longer line is refused whole (docs/fleet.md).
    public static let maxRecordBytes = 1 << 20

    /// - Throws: `FleetError.io` when the file cannot be opened (ENOENT when missing),
    ///   `FleetError.notOwnFile` for a symbolic link, FIFO or anything but a regular file.
    public init(path: String, offset: UInt64 = 0) throws {
        guard let (fd, st) = try SafeFile.openForReading(path) else {
            throw FleetError.io(operation: "open", path: path, errno: ENOENT)
        }
        self.path = path
        descriptor = fd
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        self.offset = offset
        bufferStart = offset
    }

    deinit { close(descriptor) }

    /// `descriptor` for swift-system's reads (EINTR retried there).
    private var file: FileDescriptor { FileDescriptor(rawValue: descriptor) }

    /// The file's size now (confirmed or not).
    public var size: UInt64 {
        var st = stat()
        return fstat(descriptor, &st) == 0 ? UInt64(st.st_size) : 0
    }

    /// The file's modification time, seconds since 1970.
    public var modified: Double {
        var st = stat()
        guard fstat(descriptor, &st) == 0 else { return 0 }
        return Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9
    }

    /// The file's owner.
    public var owner: uid_t {
        var st = stat()
        return fstat(descriptor, &st) == 0 ? st.st_uid : 0
    }

    /// Whether the file is deleted (no name left).
    public var unlinked: Bool {
        var st = stat()
        return fstat(descriptor, &st) == 0 && st.st_nlink == 0
    }

    /// A hash of the first `min(256, length)` bytes (`OutboxPosition.head`).
    public func head(within length: UInt64) -> String {
        var bytes = [UInt8](repeating: 0, count: Int(min(256, length)))
        let n = (try? bytes.withUnsafeMutableBytes { try file.read(fromAbsoluteOffset: 0, into: $0) }) ?? 0
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes.prefix(max(0, n)) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16) + ":" + String(max(0, n))
    }

    /// Whether a writer (nfctap's, which locks what it writes) still has this file open.
    public var writerHoldsFile: Bool { WriterLocks.isHeld(descriptor) }

    /// Starts reading again at `offset` (after a reconnect: from the last acknowledged record).
    public func rewind(to offset: UInt64) {
        self.offset = offset
        buffer.removeAll(keepingCapacity: true)
        bufferStart = offset
    }

    /// Refreshes the confirmed length; false while the writer is in the middle of an append.
    private func refreshConfirmed() -> Bool {
        guard let length = WriterLocks.confirmedLength(descriptor) else {
            writerBusy = true
            return false
        }
        writerBusy = false
        confirmed = length
        return true
    }

    /// The next complete, confirmed record; nil when there is none after `offset` yet.
    /// - Throws: `FleetError.io` on a read error.
    public func next() throws -> OutboxRecord? {
        var skipped: UInt64?  // bytes of an oversized line dropped so far; `offset` stays at its start
        while true {
            let start = skipped == nil ? Int(offset - bufferStart) : 0
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let end = bufferStart + UInt64(newline + 1)
                offset = end
                if skipped != nil || newline - start > Self.maxRecordBytes {
                    return OutboxRecord(bytes: [], end: end, oversizedLength: (skipped ?? 0) + UInt64(newline - start))
                }
                return OutboxRecord(bytes: buffer[start..<newline], end: end, oversizedLength: nil)
            }
            if skipped != nil || buffer.count - start > Self.maxRecordBytes {
                // Too long to publish: drop what is buffered and look for the line's end.
                skipped = (skipped ?? 0) + UInt64(buffer.count - start)
                bufferStart += UInt64(buffer.count)
                buffer.removeAll(keepingCapacity: true)
            } else if start > 0 {
                buffer.removeFirst(start)
                bufferStart = offset
            }
            let fileOffset = bufferStart + UInt64(buffer.count)
            if fileOffset >= confirmed {
                guard refreshConfirmed(), confirmed > fileOffset else { return giveUp() }
            }
            var chunk = [UInt8](repeating: 0, count: Int(min(UInt64(64 * 1024), confirmed - fileOffset)))
            let n: Int
            do {
                n = try chunk.withUnsafeMutableBytes { try file.read(fromAbsoluteOffset: Int64(fileOffset), into: $0) }
            } catch {
                throw FleetError.io(operation: "read", path: path, errno: (error as? Errno)?.rawValue ?? EIO)
            }
            if n == 0 { return giveUp() }
            buffer += chunk[..<n]
        }
    }

    /// No complete record yet: forget the partial line. The writer may still finish it, or cut
    /// it back and write another record in its place; either way it is read again.
    private func giveUp() -> OutboxRecord? {
        buffer.removeAll(keepingCapacity: true)
        bufferStart = offset
        return nil
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
