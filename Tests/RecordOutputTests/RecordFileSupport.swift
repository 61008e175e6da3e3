import Foundation
@testable import RecordOutput
import Synchronization

/// A fresh directory under /tmp, removed afterwards.
final class TempDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-records-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

enum Fixture {
    /// The test's record shape: JSON Lines objects with `seq` and `uid`.
    static let jsonl = RecordFileFormat.jsonLines(requiringAnyOf: [["seq", "uid"]], firstKeys: ["seq"])
    static let csvHeader = "seq,uid\r\n"
    static let csv = RecordFileFormat.csv(header: csvHeader)

    static func line(_ seq: Int) -> String { "{\"seq\":\(seq),\"uid\":\"04A1B2C3\"}\n" }

    static func bytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    static func text(_ path: String) -> String {
        String(decoding: bytes(path) ?? [], as: UTF8.self)
    }
}

/// System calls that fail on demand: the `n`th write stores only `partial` bytes and then fails
/// with `errno`; or every sync fails.
final class FailingCalls: Sendable {
    private struct Plan {
        var failWriteWith: (code: Int32, partial: Int)?
        var failSyncWith: Int32?
    }

    private let plan = Mutex(Plan())

    func failNextWrite(errno code: Int32, afterWriting partial: Int) { plan.withLock { $0.failWriteWith = (code, partial) } }
    func failNextSync(errno code: Int32) { plan.withLock { $0.failSyncWith = code } }

    var calls: FileCalls {
        FileCalls(
            write: { [self] fd, buffer, count in
                if let failure = plan.withLock({ plan -> (code: Int32, partial: Int)? in
                    defer { plan.failWriteWith = nil }
                    return plan.failWriteWith
                }) {
                    // A short write first (the disk fills up mid-record), then the error.
                    if failure.partial > 0 { _ = FileCalls.system.write(fd, buffer, min(failure.partial, count)) }
                    errno = failure.code
                    return -1
                }
                return FileCalls.system.write(fd, buffer, count)
            },
            sync: { [self] fd in
                if let code = plan.withLock({ plan -> Int32? in
                    defer { plan.failSyncWith = nil }
                    return plan.failSyncWith
                }) {
                    errno = code
                    return -1
                }
                return FileCalls.system.sync(fd)
            },
            truncate: FileCalls.system.truncate)
    }
}

/// Another process holding an fcntl (POSIX) write lock on a file: python's `fcntl.lockf`.
final class LockHolder {
    let process = Process()
    var pid: Int32 { process.processIdentifier }

    init(path: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import fcntl, sys, time
            f = open(sys.argv[1], "a")
            fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            print("locked", flush=True)
            time.sleep(30)
            """, path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let line = out.fileHandleForReading.availableData
        guard String(decoding: line, as: UTF8.self).hasPrefix("locked") else {
            process.terminate()
            throw CocoaError(.fileLocking)
        }
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
