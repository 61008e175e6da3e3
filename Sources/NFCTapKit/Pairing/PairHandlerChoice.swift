import Pairing

/// `--handler bluez|exec:CMD|json`.
package enum PairHandlerChoice: Equatable, Sendable {
    /// Pair over BlueZ on the system D-Bus (`DBUS_SYSTEM_BUS_ADDRESS` honoured).
    case bluez
    /// Run CMD (split without a shell) with the identity in its environment and on stdin.
    case exec(String)
    /// Print the identity as one JSON line on stdout.
    case json

    package init?(argument: String) {
        switch argument {
        case "bluez": self = .bluez
        case "json": self = .json
        default:
            guard argument.hasPrefix("exec:") else { return nil }
            self = .exec(String(argument.dropFirst("exec:".count)))
        }
    }

    package var defaultValueDescription: String { "bluez" }

    /// The name in `--json` output.
    package var name: String {
        switch self {
        case .bluez: return "bluez"
        case .exec: return "exec"
        case .json: return "json"
        }
    }

    /// - Throws: `PairingError.invalidCommandLine` for an empty or badly quoted `exec:` command.
    package func makeHandler() throws -> any PairingHandler {
        switch self {
        case .bluez: return BlueZPairingHandler()
        case .exec(let line): return try ExecPairingHandler(commandLine: line)
        case .json: return JSONPairingHandler()
        }
    }
}
