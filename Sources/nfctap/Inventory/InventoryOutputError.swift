import Foundation

/// Why `inventory` cannot write its records. Each message names the file and what to do.
enum InventoryOutputError: Error, Equatable, CustomStringConvertible {
    /// `--output` names a file in a directory that does not exist.
    case directoryMissing(path: String, directory: String)
    /// The existing file is not an inventory in this format (the first line does not match).
    case notAnInventory(path: String, format: InventoryFormat)
    /// A system call failed; `errno` kept.
    case io(operation: String, path: String, errno: Int32)

    var description: String {
        switch self {
        case let .directoryMissing(path, directory):
            return "cannot write \(path): the directory \(directory) does not exist (create it first, or choose another --output)"
        case let .notAnInventory(path, format):
            return "\(path) exists and is not an nfctap inventory in \(format.rawValue) format: choose another --output (or the matching --format) so it is not mixed up"
        case let .io(operation, path, code):
            return "\(operation) \(path) failed: \(String(cString: strerror(code)))"
        }
    }
}
