import Foundation

/// Why the forwarder cannot start or keep its position.
public enum FleetError: Error, Equatable, CustomStringConvertible, Sendable {
    /// `sd_id128_get_machine_app_specific` failed (its errno): no usable /etc/machine-id.
    case noMachineID(errno: Int32)
    /// A system call on the record file or its position file failed.
    case io(operation: String, path: String, errno: Int32)
    /// The position file exists but is not one nfctap wrote.
    case badPosition(path: String, reason: String)
    /// The record format cannot be published (CSV, stdout…).
    case unsupportedOutput(String)
    /// A path the forwarder reads or writes is not a regular file of its own (a symbolic link, a FIFO…).
    case notOwnFile(path: String, kind: String)
    /// Another forwarder publishes this file (it holds `<file>.fleet-lock`); `pid` when known.
    case locked(path: String, pid: Int32?)
    /// The CA file of an mqtts URL is missing, unreadable or not PEM certificates.
    case badCAFile(path: String, reason: String)

    public var description: String {
        switch self {
        case .noMachineID(ELIBACC):
            // libsystemd is opened on first use (CLazyLibrary): this is its absence, not the file's.
            return "libsystemd.so.0 could not be loaded, so the station id cannot be made (apt-get install libsystemd0)"
        case let .noMachineID(code):
            return "no machine id in /etc/machine-id: \(String(cString: strerror(code))) (systemd-machine-id-setup creates one)"
        case let .io(operation, path, code):
            return "cannot \(operation) \(path): \(String(cString: strerror(code))) (errno \(code))"
        case let .badPosition(path, reason):
            return "\(path) is not a valid position file (\(reason)); move it away to publish the file again from its start"
        case let .unsupportedOutput(reason):
            return reason
        case let .notOwnFile(path, kind):
            return "\(path) is \(kind), not a regular file: refusing it (the forwarder never follows links or reads pipes; remove it)"
        case let .locked(path, pid):
            let holder = pid.map { "process \($0)" } ?? "another process"
            return "\(path) is already published by \(holder) (it holds \(path).fleet-lock): one forwarder per file; stop it first"
        case let .badCAFile(path, reason):
            return "CA file \(path): \(reason)"
        }
    }
}
