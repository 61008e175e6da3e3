import SafeText
import Foundation
import RecordOutput
import Synchronization

/// Where the kiosk's JSON lines go: stdout, or a `DurableRecordFile` (the writer `inventory`
/// uses: created 0640, refused when it is not the kiosk's output, locked against a second
/// process, each line written and (with `sync`) synced before the tap is green, a failed line
/// cut back, a deleted or rotated file reopened).
///
/// One process holds one descriptor per file (its lock belongs to the open file: a second one would
/// be refused as another writer), so a reload that names the same file shares it: opening it again
/// reopens it (SIGHUP's logrotate convention).
package final class KioskOutput: Sendable {
    package let path: String
    private let file: DurableRecordFile
    /// The pool's name for the file (nil for stdout).
    private let poolKey: String?
    /// Set by `close()` (under the pool's lock too).
    private let closed = Mutex(false)
    /// The error of the last `keepingError` write, for a writer that cannot throw.
    private let lastWriteError = Mutex<(any Error)?>(nil)

    private init(path: String, file: DurableRecordFile, poolKey: String?) {
        self.path = path
        self.file = file
        self.poolKey = poolKey
    }

    /// The kiosk's lines: a tag report (`scan --json`'s object) or a printer identity (`pair`
    /// with `json`).
    package static let format = RecordFileFormat.jsonLines(requiringAnyOf: [["uid", "type", "reader"], ["serial", "bluetooth"]],
                                                   firstKeys: ["schemaVersion", "records", "ndef", "uid", "bluetooth", "serial"])

    /// - Parameter calls: the system calls of an append, when the file is first opened (tests
    ///   make the disk fail).
    /// - Throws: `RecordFileError` when the file cannot be opened for appending.
    static func open(_ target: KioskConfiguration.Output, sync: Bool, calls: FileCalls = .system) throws -> KioskOutput {
        switch target {
        case .standardOutput:
            let file = try DurableRecordFile(standardOutput: format)
            file.syncsEachRecord = false
            return KioskOutput(path: "stdout", file: file, poolKey: nil)
        case let .file(path):
            let key = Pool.key(for: path)
            return KioskOutput(path: path, file: try pool.acquire(key, path: path, sync: sync, calls: calls), poolKey: key)
        }
    }

    /// Appends `line` and a newline.
    /// - Throws: `RecordFileError` (disk full, stdout closed: EPIPE, …); the file is then back at
    ///   its last whole line.
    package func write(line: String) throws {
        try file.append(line + "\n")
    }

    /// Appends `line` for a writer that cannot throw (the JSON pairing handler): a failure is kept
    /// for `takeWriteError()`.
    package func write(keepingError line: String) {
        do { try write(line: line) } catch { lastWriteError.withLock { $0 = error } }
    }

    /// The failure of the last `write(keepingError:)` since the previous call, cleared.
    package func takeWriteError() -> (any Error)? {
        lastWriteError.withLock { last in
            defer { last = nil }
            return last
        }
    }

    /// Lets go of the file (closed once its last user has; stdout stays open).
    package func close() {
        guard let poolKey else { return }
        KioskOutput.pool.release(poolKey, closing: self)
    }

    deinit { close() }

    private static let pool = Pool()

    /// Open files by path, with their users.
    private final class Pool: Sendable {
        private let files = Mutex<[String: (file: DurableRecordFile, users: Int)]>([:])

        /// The path with its directory resolved (`/var/log/../log/x` and a symlinked directory
        /// name the same file, so they share one descriptor and one lock).
        static func key(for path: String) -> String {
            let directory = DurableRecordFile.directory(of: path)
            guard let resolved = realpath(directory, nil) else { return path }
            defer { free(resolved) }
            return String(cString: resolved) + "/" + (path as NSString).lastPathComponent
        }

        func acquire(_ key: String, path: String, sync: Bool, calls: FileCalls) throws -> DurableRecordFile {
            try files.withLock { files in
                if let entry = files[key] {
                    try entry.file.reopen()
                    entry.file.syncsEachRecord = sync
                    files[key]!.users += 1
                    return entry.file
                }
                let file = try DurableRecordFile(path: path, format: KioskOutput.format, mode: 0o640, calls: calls) { warning in
                    // Same shape as the kiosk log (journald priority 4: warning).
                    Stderr.line("<4>output: " + SafeText.escaped(warning))
                }
                file.syncsEachRecord = sync
                files[key] = (file, 1)
                return file
            }
        }

        func release(_ key: String, closing output: KioskOutput) {
            files.withLock { files in
                guard output.closed.withLock({ closed in
                    defer { closed = true }
                    return !closed
                }), var entry = files[key] else { return }
                entry.users -= 1
                if entry.users <= 0 {
                    entry.file.close()
                    files[key] = nil
                } else {
                    files[key] = entry
                }
            }
        }
    }
}
