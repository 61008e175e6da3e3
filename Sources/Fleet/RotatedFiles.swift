import Foundation

/// The rotated predecessors of a record file: regular files beside it (same directory) named
/// `<name>.<suffix>` or `<name>-<suffix>` (logrotate's `taps.jsonl.1` and `taps.jsonl-20261127`,
/// `mv taps.jsonl taps.jsonl.old`), not compressed (`.gz`, `.xz`, `.zst`, `.bz2`, `.lz4`, `.Z`: use
/// logrotate's `delaycompress`) and not the forwarder's own `.fleet-*` files. A rotated file keeps
/// its inode, which is how the position file finds it again (README "Fleet": rotation). A file
/// with more than one name (a hard link) or another owner is never a candidate.
struct RotatedFiles {
    struct Candidate: Equatable {
        var path: String
        var device: UInt64
        var inode: UInt64
        var modified: Double
    }

    let outboxPath: String
    /// The uid every candidate must have (the published file's owner); nil: any.
    var owner: uid_t? = nil

    private static let compressed = [".gz", ".xz", ".zst", ".bz2", ".lz4", ".Z"]

    /// Every rotated candidate beside the outbox, oldest write first (symbolic links, FIFOs and
    /// other non-regular files are never candidates).
    func candidates() -> [Candidate] {
        let directory = (outboxPath as NSString).deletingLastPathComponent
        let base = (outboxPath as NSString).lastPathComponent
        let listed = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
        var found: [Candidate] = []
        for name in listed where name.count > base.count + 1 && name.hasPrefix(base) {
            let suffix = name.dropFirst(base.count)
            guard suffix.first == "." || suffix.first == "-", !suffix.dropFirst().hasPrefix("fleet-"),
                  !Self.compressed.contains(where: { suffix.hasSuffix($0) }) else { continue }
            let path = directory.isEmpty ? name : directory + "/" + name
            var st = stat()
            // Only a plain rotated file: regular, one name (not a hard link planted to another
            // file), owned by the owner of the file being published.
            guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_nlink == 1,
                  owner.map({ $0 == st.st_uid }) ?? true else { continue }
            found.append(Candidate(path: path, device: UInt64(st.st_dev), inode: UInt64(st.st_ino),
                                   modified: Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9))
        }
        return found.sorted { ($0.modified, $0.path) < ($1.modified, $1.path) }
    }

    /// The rotated file with this identity, if it is still beside the outbox.
    func find(device: UInt64, inode: UInt64) -> Candidate? {
        candidates().first { $0.device == device && $0.inode == inode }
    }

    /// The rotated files written after the one last written at `modified` (not `except`), oldest first.
    func successors(after modified: Double, except inode: UInt64?, currentInode: UInt64?) -> [Candidate] {
        candidates().filter { $0.modified >= modified && $0.inode != inode && $0.inode != currentInode }
    }
}
