import Foundation

/// Why a record file cannot be opened or written. Each message names the file and what to do.
public enum RecordFileError: Error, Equatable, CustomStringConvertible {
    /// The file names a directory that does not exist.
    case directoryMissing(path: String, directory: String)
    /// The path is a symbolic link: never followed (one planted in place of the file would
    /// redirect records anywhere).
    case symlink(path: String)
    /// A FIFO, device, socket or directory: records could be lost or block; use `-` for stdout.
    case notRegularFile(path: String, kind: String)
    /// The existing file is not recognisably this tool's records in this format: left untouched.
    case notOurs(path: String, format: String)
    /// Another process holds the file's lock (`pid` nil when it could not be learnt).
    case locked(path: String, pid: Int32?)
    /// A system call failed; `errno` kept. After a failed append the file is back at its last
    /// complete record.
    case io(operation: String, path: String, errno: Int32)

    public var description: String {
        switch self {
        case let .directoryMissing(path, directory):
            return "cannot write \(path): the directory \(directory) does not exist (create it first, or choose another output)"
        case let .symlink(path):
            return "\(path) is a symbolic link: refusing to follow it (name the real file instead, or \"-\" for stdout)"
        case let .notRegularFile(path, kind):
            return "\(path) is \(kind), not a regular file: records written there could be lost (use \"-\" for stdout)"
        case let .notOurs(path, format):
            return "\(path) exists and is not nfctap's records in \(format) format: left untouched; choose another output (or the matching format)"
        case let .locked(path, pid):
            let holder = pid.map { "process \($0)" } ?? "another process"
            return "\(path) is in use by \(holder) (it holds the file's lock): two writers would mix their records; stop it or choose another output"
        case let .io(operation, path, code):
            return "\(operation) \(path) failed: \(String(cString: strerror(code)))"
        }
    }
}
