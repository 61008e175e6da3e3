import Foundation

/// Why the kiosk's output could not be opened or written.
struct KioskOutputError: Error, Equatable, CustomStringConvertible {
    var path: String
    var operation: String
    var errno: Int32

    var description: String {
        "\(operation) \(path): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}

/// Where JSON lines go: stdout, or a file opened for appending (created 0640). Each line is one
/// `write(2)` of the whole line (O_APPEND keeps concurrent writers' lines whole), then
/// `fdatasync` for files when `sync`, so a green LED means the line is on disk.
final class KioskOutput: @unchecked Sendable {
    // @unchecked: used from the session queue only; the fd is immutable.
    let path: String
    private let fd: Int32
    private let ownsDescriptor: Bool
    private let sync: Bool
    private var closed = false

    private init(path: String, fd: Int32, ownsDescriptor: Bool, sync: Bool) {
        self.path = path
        self.fd = fd
        self.ownsDescriptor = ownsDescriptor
        self.sync = sync
    }

    /// - Throws: `KioskOutputError` when the file cannot be opened for appending.
    static func open(_ target: KioskConfiguration.Output, sync: Bool) throws -> KioskOutput {
        switch target {
        case .standardOutput:
            return KioskOutput(path: "stdout", fd: 1, ownsDescriptor: false, sync: false)
        case let .file(path):
            let fd = Foundation.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
            guard fd >= 0 else { throw KioskOutputError(path: path, operation: "cannot open", errno: errno) }
            return KioskOutput(path: path, fd: fd, ownsDescriptor: true, sync: sync)
        }
    }

    /// Appends `line` and a newline.
    /// - Throws: `KioskOutputError` (disk full, stdout closed: EPIPE, …).
    func write(line: String) throws {
        var bytes = Array((line + "\n").utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw KioskOutputError(path: path, operation: "cannot write to", errno: errno)
            }
            bytes = bytes.dropFirst(n)
        }
        if sync, fdatasync(fd) != 0, errno != EINVAL {
            throw KioskOutputError(path: path, operation: "cannot sync", errno: errno)
        }
    }

    /// Closes the file (once; stdout stays open).
    func close() {
        guard ownsDescriptor, !closed else { return }
        closed = true
        _ = Foundation.close(fd)
    }

    deinit { close() }
}
