import Foundation

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

    public init(fileID: String = UUID().uuidString.lowercased(), device: UInt64, inode: UInt64,
                offset: UInt64 = 0, records: UInt64 = 0) {
        self.fileID = fileID
        self.device = device
        self.inode = inode
        self.offset = offset
        self.records = records
    }

    public static func path(forOutbox outbox: String) -> String { outbox + ".fleet-position" }

    /// The saved position, nil when there is none yet.
    /// - Throws: `FleetError.badPosition` when the file is not a position this code wrote.
    public static func load(path: String) throws -> OutboxPosition? {
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw FleetError.io(operation: "read", path: path, errno: EACCES) }
            return nil
        }
        guard data.count <= 4096 else { throw FleetError.badPosition(path: path, reason: "larger than 4 KiB") }
        let position: OutboxPosition
        do {
            position = try JSONDecoder().decode(OutboxPosition.self, from: data)
        } catch {
            throw FleetError.badPosition(path: path, reason: "not the expected JSON")
        }
        guard !position.fileID.isEmpty, position.fileID.count <= 64,
              position.fileID.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw FleetError.badPosition(path: path, reason: "bad fileID")
        }
        return position
    }

    /// Writes the position durably: a temporary file in the same directory, fsync, rename over
    /// the old one, fsync of the directory. A crash leaves either the old or the new position.
    /// - Throws: `FleetError.io`.
    public func save(path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(self)) ?? Data()
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o640)
        guard fd >= 0 else { throw FleetError.io(operation: "create", path: temporary, errno: errno) }
        var ok = data.withUnsafeBytes { raw -> Bool in
            var done = 0
            while done < raw.count {
                let n = write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 { if errno == EINTR { continue }; return false }
                done += n
            }
            return true
        }
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
        let dfd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            _ = fsync(dfd)
            close(dfd)
        }
    }
}
