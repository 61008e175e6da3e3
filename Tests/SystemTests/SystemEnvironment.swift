import Foundation
import Testing
import TestSupport

/// Ring 3 helpers: which daemons scripts/test.sh started, and running the CLI as a user does.
///
/// scripts/services/<name>.sh exports `NFCTAP_SERVICE_<NAME>=1` (plus its own details, e.g. the
/// pcscd socket) once the service is up. A suite gated on a service is skipped when it is absent,
/// unless `NFCTAP_REQUIRE_SYSTEM=1` (set by scripts/test.sh), where absence is a failure.
enum SystemEnvironment {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    static func isRunning(_ service: String) -> Bool {
        environment["NFCTAP_SERVICE_\(service.uppercased())"] == "1"
    }

    /// For `.enabled(if:)`: true when the service runs, or when the script requires the system ring
    /// (then the suite runs and fails loudly if the service is missing).
    static func available(_ service: String) -> Bool {
        isRunning(service) || environment["NFCTAP_REQUIRE_SYSTEM"] == "1"
    }

    /// A program a test needs (lintian, man, dpkg-deb…): present, or required anyway under
    /// scripts/test.sh, which installs it (scripts/lib.sh), so that a missing one fails there
    /// instead of the test quietly not running.
    static func tool(_ path: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: path) || environment["NFCTAP_REQUIRE_SYSTEM"] == "1"
    }

    /// Root of the machine, not the root of a user namespace: scripts/test.sh run by a normal user
    /// maps that user to root in a user namespace, where uid 0 may not mount an overlay of / nor
    /// switch to another user (only one uid is mapped). From /proc/self/uid_map: the initial
    /// namespace maps all 4294967295 ids onto themselves.
    static let isRealRoot: Bool = {
        guard getuid() == 0, let map = try? String(contentsOfFile: "/proc/self/uid_map", encoding: .utf8) else { return false }
        return map.split(whereSeparator: \.isWhitespace) == ["0", "0", "4294967295"]
    }()

    /// The reason printed for a test skipped when not real root.
    static let needsRealRoot: Comment = "needs real root (not a user namespace's): scripts/test.sh as a normal user runs the tests as the root of a user namespace"

    /// The package root, found from this file's path.
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// The `nfctap` binary built next to the test bundle.
    static var cliPath: String {
        if let p = environment["NFCTAP_CLI"] { return p }
        let bundleDir = Bundle.main.bundleURL.deletingLastPathComponent()
        for candidate in [bundleDir.appendingPathComponent("nfctap"),
                          packageRoot.appendingPathComponent(".build/debug/nfctap")] {
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
        }
        return packageRoot.appendingPathComponent(".build/debug/nfctap").path
    }
}

/// The result of running the CLI.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// SIGPIPE ignored in the test process, once: a write to a child gone gets EPIPE instead.
let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN); return () }()

/// Runs `nfctap args…` with optional stdin and extra environment, with a hard timeout so a
/// hanging CLI fails the test instead of hanging it; `executable` runs another build of nfctap
/// (the release binary the package ships).
func runCLI(_ args: [String], stdin: Data? = nil, environment extra: [String: String] = [:],
            timeout: TimeInterval = 60, executable: String = SystemEnvironment.cliPath) throws -> CLIResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = args
    var env = ProcessInfo.processInfo.environment
    for (k, v) in extra { env[k] = v }
    process.environment = env
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    // A child that exits before reading its input must fail its test, not kill the test process
    // with SIGPIPE (the second lane runs the test bundle directly, with SIGPIPE's default action).
    _ = ignoreSIGPIPE
    if let stdin { try? input.fileHandleForWriting.write(contentsOf: stdin) }
    try? input.fileHandleForWriting.close()
    // Read both pipes concurrently so a chatty child cannot block on a full pipe.
    let group = DispatchGroup()
    let outData = Locked(Data()), errData = Locked(Data())
    group.enter(); DispatchQueue.global().async { outData.withLock { $0 = out.fileHandleForReading.readDataToEndOfFile() }; group.leave() }
    group.enter(); DispatchQueue.global().async { errData.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() }; group.leave() }
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning {
        process.terminate()
        Issue.record("nfctap \(args.joined(separator: " ")) did not finish within \(timeout) s")
    }
    process.waitUntilExit()
    group.wait()
    return CLIResult(status: process.terminationStatus,
                     stdout: String(decoding: outData.current, as: UTF8.self),
                     stderr: String(decoding: errData.current, as: UTF8.self))
}
