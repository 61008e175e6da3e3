import Foundation

/// The rotated predecessors of a record file: regular files beside it (same directory) named
/// `<name>.<suffix>` or `<name>-<suffix>` (logrotate's `taps.jsonl.1` and `taps.jsonl-20261127`,
/// `mv taps.jsonl taps.jsonl.old`), not compressed (`.gz`, `.xz`, `.zst`, `.bz2`, `.lz4`, `.Z`: use
/// logrotate's `delaycompress`) and not the forwarder's own `.fleet-*` files. A rotated file keeps
/// its inode, which is how the position file finds it again (docs/fleet.md: rotation). A file
/// with more than one name (a hard link) or another owner is never a candidate.
struct RotatedFiles {
    struct Candidate: Equatable {
        var path: String
        var device: UInt64
        var inode: UInt64
        var modified: Double
        /// logrotate's number (`taps.jsonl.2`, `taps.jsonl-3`): the higher, the older; nil for
        /// other suffixes (dates, `.old`).
        var rotationNumber: Int? = nil

        /// Oldest first: by last write, and among files last written in the same clock tick (file
        /// times are coarse: two rotations a few milliseconds apart leave equal times) by the
        /// rotation number, a higher number being older; then by name.
        static func precedes(_ a: Candidate, _ b: Candidate) -> Bool {
            if a.modified != b.modified { return a.modified < b.modified }
            let (ra, rb) = (a.rotationNumber ?? -1, b.rotationNumber ?? -1)
            if ra != rb { return ra > rb }
            return a.path < b.path
        }
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
            let digits = suffix.dropFirst()
            let number = !digits.isEmpty && digits.count <= 9 && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
                ? Int(digits) : nil
            found.append(Candidate(path: path, device: UInt64(st.st_dev), inode: UInt64(st.st_ino),
                                   modified: Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9,
                                   rotationNumber: number))
        }
        return found.sorted(by: Candidate.precedes)
    }

    /// The rotated file with this identity, if it is still beside the outbox.
    func find(device: UInt64, inode: UInt64) -> Candidate? {
        candidates().first { $0.device == device && $0.inode == inode }
    }

    /// The rotated files written after the finished one (`inode`, last written at `modified`),
    /// oldest first. While the finished file is still beside the outbox, strictly after it in
    /// `Candidate.precedes`' order, so a chain of rotations is walked forward once and never back
    /// (with equal file times, `.2` and `.1` would otherwise each count as written after the other);
    /// once it is gone, every file last written at or after `modified`.
    func successors(after modified: Double, except inode: UInt64?, currentInode: UInt64?) -> [Candidate] {
        let all = candidates()
        if let inode, let finished = all.firstIndex(where: { $0.inode == inode }) {
            return all[all.index(after: finished)...].filter { $0.inode != currentInode }
        }
        return all.filter { $0.modified >= modified && $0.inode != inode && $0.inode != currentInode }
    }
}
