import Foundation
import Glibc
import SystemPackage

/// Why the message could not be handed to an application.
public enum LaunchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `XDG_RUNTIME_DIR` is unset or not a private directory of this user.
    case noRuntimeDirectory(String)
    /// Creating or writing a file failed (errno).
    case cannotWrite(String, errno: Int32)
    /// The program could not be started (errno from posix_spawn).
    case cannotStart(String, errno: Int32)
    /// The entry expanded to no program.
    case emptyCommand

    public var description: String {
        switch self {
        case let .noRuntimeDirectory(why): return "no private runtime directory: \(why)"
        case let .cannotWrite(path, e): return "cannot write \(path): \(String(cString: strerror(e)))"
        case let .cannotStart(program, e): return "cannot start \(program): \(String(cString: strerror(e)))"
        case .emptyCommand: return "the Exec line expands to no program"
        }
    }
}

/// The files an application launched for a tap reads its message from: the raw NDEF bytes
/// (`NFCTAP_NDEF_FILE`) and the JSON form (`NFCTAP_NDEF_JSON_FILE`), mode 0600 in
/// `$XDG_RUNTIME_DIR/nfctap/launch` (0700). Files older than `lifetime` are removed when new ones
/// are written and, in the agent, on time: its loop wakes at `nextExpiry()` and sweeps
/// (docs/desktop-agent.md §4). The runtime directory itself goes at logout.
public struct LaunchPayloadStore: Sendable {
    public static let fileEnvironmentKey = "NFCTAP_NDEF_FILE"
    public static let jsonEnvironmentKey = "NFCTAP_NDEF_JSON_FILE"
    /// The URL the application was launched for (`NSUserActivity.webpageURL`), also its `%u`.
    public static let urlEnvironmentKey = "NFCTAP_URL"

    public let directory: String
    public var lifetime: TimeInterval = 600

    /// - Throws: `LaunchError.noRuntimeDirectory` when `XDG_RUNTIME_DIR` is unusable.
    public init(environment: [String: String]) throws {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else {
            throw LaunchError.noRuntimeDirectory("XDG_RUNTIME_DIR is not set")
        }
        directory = try PrivateDirectory.ensure(runtime + "/nfctap/launch")
    }

    /// Writes the message's two files; returns their paths.
    /// - Throws: `LaunchError.cannotWrite`.
    public func write(ndef: [UInt8], json: String) throws -> (ndef: String, json: String) {
        sweep()
        var generator = SystemRandomNumberGenerator()
        let stem = directory + "/tap-" + String(generator.next() as UInt64, radix: 16)
        let ndefPath = stem + ".ndef", jsonPath = stem + ".json"
        try Self.writePrivate(ndef, to: ndefPath)
        try Self.writePrivate(Array(json.utf8), to: jsonPath)
        return (ndefPath, jsonPath)
    }

    /// Removes this store's files older than `lifetime`.
    public func sweep(now: Date = Date()) {
        for file in files() where now.timeIntervalSince1970 - file.modified >= lifetime { unlink(file.path) }
    }

    /// When the oldest file left becomes older than `lifetime` (nil: no file).
    public func nextExpiry() -> Date? {
        files().map(\.modified).min().map { Date(timeIntervalSince1970: $0 + lifetime) }
    }

    /// The store's own files: regular `tap-*` files (anything else in the directory is left alone).
    private func files() -> [(path: String, modified: TimeInterval)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter { $0.hasPrefix("tap-") }.compactMap { name in
            let path = directory + "/" + name
            var st = stat()
            guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
            return (path, TimeInterval(st.st_mtim.tv_sec) + TimeInterval(st.st_mtim.tv_nsec) / 1e9)
        }
    }

    /// O_EXCL + O_NOFOLLOW: never follows or reuses anything already at `path`.
    static func writePrivate(_ bytes: [UInt8], to path: String) throws {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), .writeOnly, options: [.create, .exclusiveCreate, .noFollow, .closeOnExec],
                                         permissions: [.ownerReadWrite])
        } catch {
            throw LaunchError.cannotWrite(path, errno: (error as? Errno)?.rawValue ?? EIO)
        }
        defer { try? fd.close() }
        do {
            _ = try fd.writeAll(bytes)
        } catch {
            unlink(path)
            throw LaunchError.cannotWrite(path, errno: (error as? Errno)?.rawValue ?? EIO)
        }
    }
}

/// A directory only this user can enter.
enum PrivateDirectory {
    /// Creates `path` (and missing parents) with mode 0700; checks it is a real directory owned by
    /// this user and not group/world accessible.
    /// - Throws: `LaunchError.noRuntimeDirectory` otherwise.
    static func ensure(_ path: String) throws -> String {
        var current = ""
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw LaunchError.noRuntimeDirectory("cannot create \(current): \(String(cString: strerror(errno)))")
            }
        }
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
            throw LaunchError.noRuntimeDirectory("\(path) is not a directory")
        }
        guard st.st_uid == getuid(), st.st_mode & 0o077 == 0 else {
            throw LaunchError.noRuntimeDirectory("\(path) must be owned by this user with mode 0700")
        }
        return path
    }
}
