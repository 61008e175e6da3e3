import Glibc
import ZebraPrinter

/// `--exec CMD`: hands the printer to the user's own program.
///
/// - CMD is split into argv by `CommandLineSplitter`'s rules and started with posix_spawn:
///   no shell ever sees it, and tag values are never part of it.
/// - Tag values reach the program only as environment variables (`NFCTAP_SERIAL`,
///   `NFCTAP_MODEL`, `NFCTAP_BT_MAC`, `NFCTAP_BLE_MAC`, `NFCTAP_WIFI_MAC`, `NFCTAP_ETHERNET_MAC`,
///   `NFCTAP_VERSION`; unset when the tag lacks the field or the MAC is all zeros) and as one
///   JSON object on its stdin (`IdentityJSON`, followed by a newline, then end of file).
/// - Its stdout and stderr are nfctap's own (passed through, not captured).
/// - Its exit status is the result (`.handedOff`); after `commandTimeout` its process group
///   gets SIGTERM, then SIGKILL two seconds later, and the result is `.commandTimedOut`.
public struct ExecPairingHandler: PairingHandler {
    /// The program and its arguments.
    public let arguments: [String]

    /// - Throws: `PairingError.invalidCommandLine` when the line is empty or badly quoted.
    public init(commandLine: String) throws {
        arguments = try CommandLineSplitter.split(commandLine)
    }

    public init(arguments: [String]) throws {
        guard let first = arguments.first, !first.isEmpty else {
            throw PairingError.invalidCommandLine("the command is empty")
        }
        self.arguments = arguments
    }

    /// The variables the program gets for this identity (only the fields present).
    /// - Throws: `PairingError.unsafeValue` when a value holds a NUL byte (it would be cut short).
    public static func variables(for identity: PrinterIdentity) throws -> [String: String] {
        let fields: [(String, String?)] = [
            ("NFCTAP_SERIAL", identity.serial),
            ("NFCTAP_MODEL", identity.model),
            ("NFCTAP_BT_MAC", IdentityJSON.present(identity.bluetooth)),
            ("NFCTAP_BLE_MAC", IdentityJSON.present(identity.bluetoothLE)),
            ("NFCTAP_WIFI_MAC", IdentityJSON.present(identity.wifi)),
            ("NFCTAP_ETHERNET_MAC", IdentityJSON.present(identity.ethernet)),
            ("NFCTAP_VERSION", identity.version),
        ]
        var out: [String: String] = [:]
        for case let (name, value?) in fields {
            if value.utf8.contains(0) { throw PairingError.unsafeValue(field: name) }
            out[name] = value
        }
        return out
    }

    static let variableNames: Set<String> = [
        "NFCTAP_SERIAL", "NFCTAP_MODEL", "NFCTAP_BT_MAC", "NFCTAP_BLE_MAC", "NFCTAP_WIFI_MAC",
        "NFCTAP_ETHERNET_MAC", "NFCTAP_VERSION",
    ]

    /// `inherited` (default: nfctap's own environment) without any `NFCTAP_*` tag variable,
    /// plus this tag's.
    static func environment(for identity: PrinterIdentity,
                            inherited: [String: String]? = nil) throws -> [String: String] {
        var env = inherited ?? currentEnvironment()
        for name in variableNames { env[name] = nil }
        for (k, v) in try variables(for: identity) { env[k] = v }
        return env
    }

    private static func currentEnvironment() -> [String: String] {
        var env: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { env[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return env
    }

    /// - Throws: `PairingError` (`.commandNotFound`, `.commandTimedOut`, `.commandKilled`, …).
    public func pair(_ identity: PrinterIdentity, options: PairingOptions) throws -> PairingResult {
        let runner = ProcessRunner(arguments: arguments,
                                   environment: try Self.environment(for: identity),
                                   input: Array((IdentityJSON.line(identity) + "\n").utf8),
                                   timeout: options.commandTimeout)
        return .handedOff(CommandOutcome(arguments: arguments, exitStatus: try runner.run()))
    }

    public func describe(_ identity: PrinterIdentity, options: PairingOptions) -> String {
        let names = ((try? Self.variables(for: identity)) ?? [:]).keys.sorted().joined(separator: ", ")
        let shown = arguments.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
        return "would run \(shown) with \(names) set and the identity as JSON on stdin (stopped after \(PairingError.format(options.commandTimeout.seconds)) s)"
    }
}
