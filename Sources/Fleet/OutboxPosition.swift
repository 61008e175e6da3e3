import Foundation
import SystemPackage

/// How far a record file has been published: the byte offset just past the last record the
/// broker acknowledged (PUBACK), its line number, and the file it applies to. Kept next to the
/// record file as `<file>.fleet-position` (JSON), replaced atomically.
public struct OutboxPosition: Codable, Equatable, Sendable {
    /// The file's identity in record ids (a UUID made when the file is first published).
    public var fileID: String
    /// st_dev / st_ino of the record file: a different file at the same path (rotated, replaced)
    /// starts from its beginning with a new `fileID`.
    public var device: UInt64
    public var inode: UInt64
    /// Bytes of complete records acknowledged.
    public var offset: UInt64
    /// Records acknowledged (the last one's seq in its record id).
    public var records: UInt64
    /// The record file's modification time (seconds since 1970) when the position was saved: the
    /// files rotated after it are newer (docs/fleet.md: rotation). nil in positions of older versions.
    public var modified: Double?
    /// A hash of the file's first record (up to 256 bytes) once one is acknowledged: a new file
    /// that got the deleted one's inode number is not taken for it. nil in positions of older versions.
    public var head: String?

    public init(fileID: String = UUID().uuidString.lowercased(), device: UInt64, inode: UInt64,
                offset: UInt64 = 0, records: UInt64 = 0, modified: Double? = nil) {
        self.fileID = fileID
        self.device = device
        self.inode = inode
        self.offset = offset
        self.records = records
        self.modified = modified
    }

    public static func path(forOutbox outbox: String) -> String { outbox + ".fleet-position" }

    /// The saved position, nil when there is none yet.
    /// - Throws: `FleetError.badPosition` when the file is not a position this code wrote,
    ///   `FleetError.notOwnFile` when it is a symbolic link, FIFO or anything but a regular file.
    public static func load(path: String) throws -> OutboxPosition? {
        guard let (fd, info) = try SafeFile.openForReading(path) else { return nil }
        defer { close(fd) }
        guard info.st_size <= 4096 else { throw FleetError.badPosition(path: path, reason: "larger than 4 KiB") }
        var bytes = [UInt8](repeating: 0, count: 4097)
        let count: Int
        do {
            count = try bytes.withUnsafeMutableBytes { try FileDescriptor(rawValue: fd).read(fromAbsoluteOffset: 0, into: $0) }
        } catch {
            throw FleetError.io(operation: "read", path: path, errno: (error as? Errno)?.rawValue ?? EIO)
        }
        guard count <= 4096 else { throw FleetError.badPosition(path: path, reason: "larger than 4 KiB") }
        let position: OutboxPosition
        do {
            position = try JSONDecoder().decode(OutboxPosition.self, from: Data(bytes[..<count]))
        } catch {
            throw FleetError.badPosition(path: path, reason: "not the expected JSON")
        }
        guard !position.fileID.isEmpty, position.fileID.count <= 64,
              position.fileID.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw FleetError.badPosition(path: path, reason: "bad fileID")
        }
        // Each record is at least one byte (its newline); nothing near the integer limits.
        guard position.offset < 1 << 53, position.records <= position.offset,
              position.modified.map({ $0.isFinite }) ?? true, (position.head?.utf8.count ?? 0) <= 64 else {
            throw FleetError.badPosition(path: path, reason: "offset, records or head out of range")
        }
        return position
    }

    /// Writes the position durably (`SafeFile.replace`): a crash leaves the old or the new one.
    /// - Throws: `FleetError.io`, `FleetError.notOwnFile`.
    public func save(path: String) throws {
        try SafeFile.replace(path, with: jsonBytes)
    }
}
