import Foundation
import Glibc
import NDEF
import SystemPackage

/// Why `NFCNDEFMessage.launchPayload()` has no message.
public enum NFCLaunchPayloadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `NFCTAP_NDEF_FILE` is not set: the program was not launched by `nfctap agent` for a tag.
    case notLaunchedForTag
    /// The file named by `NFCTAP_NDEF_FILE` cannot be read (errno), or is not a regular file.
    case unreadable(path: String, errno: Int32)
    /// The file is larger than any NDEF message a tag holds.
    case tooLarge(path: String, size: Int)
    /// The bytes are not an NDEF message.
    case malformed(path: String, reason: String)

    public var description: String {
        switch self {
        case .notLaunchedForTag:
            return "NFCTAP_NDEF_FILE is not set: the program was not launched by nfctap agent for a tag"
        case let .unreadable(path, e): return "cannot read \(path): \(String(cString: strerror(e)))"
        case let .tooLarge(path, size): return "\(path) holds \(size) bytes, more than an NDEF tag can"
        case let .malformed(path, reason): return "\(path) is not an NDEF message: \(reason)"
        }
    }
}

/// Linux counterpart of `NSUserActivity.ndefMessagePayload`: the message of the tag an
/// application was launched for by `nfctap agent` (background tag reading).
///
/// The agent starts the application that claims the tag's first URL (desktop entry key
/// `X-NFC-URL-Prefixes`) with the URL as `%u` and these environment variables:
/// - `NFCTAP_NDEF_FILE`: the raw NDEF message, a private (0600) file under `$XDG_RUNTIME_DIR`;
/// - `NFCTAP_NDEF_JSON_FILE`: the same message as `nfctap scan --json` prints it.
extension NFCNDEFMessage {
    /// The environment variable naming the raw message file.
    public static let launchPayloadEnvironmentKey = "NFCTAP_NDEF_FILE"
    /// Larger than every tag's NDEF area (Type 4 files stop at 32 KiB; NDEF TLVs at 64 KiB).
    public static let launchPayloadMaximumSize = 65_536

    /// The message the application was launched for, decoded as the agent read it from the tag.
    /// - Throws: `NFCLaunchPayloadError`.
    public static func launchPayload(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> NFCNDEFMessage {
        guard let path = environment[launchPayloadEnvironmentKey], !path.isEmpty else {
            throw NFCLaunchPayloadError.notLaunchedForTag
        }
        let bytes = try readPayloadFile(path)
        do {
            return try decodeFromTag(bytes)
        } catch {
            throw NFCLaunchPayloadError.malformed(path: path, reason: "\(error)")
        }
    }

    /// Reads at most `launchPayloadMaximumSize` bytes of a regular file.
    static func readPayloadFile(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw NFCLaunchPayloadError.unreadable(path: path, errno: errno) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw NFCLaunchPayloadError.unreadable(path: path, errno: errno) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw NFCLaunchPayloadError.unreadable(path: path, errno: EINVAL) }
        guard st.st_size <= launchPayloadMaximumSize else {
            throw NFCLaunchPayloadError.tooLarge(path: path, size: Int(st.st_size))
        }
        var bytes = [UInt8](repeating: 0, count: launchPayloadMaximumSize + 1)
        var total = 0
        while total < bytes.count {
            let n: Int
            do {
                n = try bytes.withUnsafeMutableBytes { try FileDescriptor(rawValue: fd).read(into: UnsafeMutableRawBufferPointer(rebasing: $0[total...])) }
            } catch {
                throw NFCLaunchPayloadError.unreadable(path: path, errno: (error as? Errno)?.rawValue ?? EIO)
            }
            if n == 0 { break }
            total += n
        }
        guard total <= launchPayloadMaximumSize else { throw NFCLaunchPayloadError.tooLarge(path: path, size: total) }
        return Array(bytes.prefix(total))
    }
}
