import Foundation

/// Why the forwarder cannot start or keep its position.
public enum FleetError: Error, Equatable, CustomStringConvertible, Sendable {
    case noMachineID([String])
    /// A system call on the record file or its position file failed.
    case io(operation: String, path: String, errno: Int32)
    /// The position file exists but is not one nfctap wrote.
    case badPosition(path: String, reason: String)
    /// The record format cannot be published (CSV, stdout…).
    case unsupportedOutput(String)

    public var description: String {
        switch self {
        case let .noMachineID(paths):
            return "no machine id in \(paths.joined(separator: " or ")) (systemd-machine-id-setup creates one)"
        case let .io(operation, path, code):
            return "cannot \(operation) \(path): \(String(cString: strerror(code))) (errno \(code))"
        case let .badPosition(path, reason):
            return "\(path) is not a valid position file (\(reason)); move it away to publish the file again from its start"
        case let .unsupportedOutput(reason):
            return reason
        }
    }
}
