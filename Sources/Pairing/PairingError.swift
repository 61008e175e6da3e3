import Glibc
import ZebraPrinter

/// Why pairing (or talking to a printer, or running the hook) failed. `description` says what
/// happened and what to do about it.
public enum PairingError: Error, Equatable, Sendable, CustomStringConvertible {
    // Finding the printer
    /// The tag carries neither a Bluetooth Classic nor an LE MAC (or only zeros).
    case noBluetoothAddress(serial: String)
    /// The system D-Bus could not be reached.
    case busUnavailable(String)
    /// Nothing owns `org.bluez` on the bus.
    case bluetoothServiceUnavailable
    /// BlueZ lists no adapter.
    case noAdapter
    /// `--adapter NAME` names an adapter BlueZ does not have.
    case adapterNotFound(String)
    /// The adapter is off and setting `Powered` failed.
    case adapterPowerFailed(adapter: String, reason: String)
    /// Discovery ran for the whole timeout without the printer appearing.
    case printerNotFound(MACAddress, seconds: Double)
    /// A BlueZ call failed (pair, trust, connect, discovery, GATT).
    case bluez(BlueZFailure)

    // LE GATT and Classic links
    /// The printer connected but its GATT services were not resolved in time.
    case servicesNotResolved(MACAddress)
    /// A required GATT service or characteristic is missing (UUID given).
    case gattAttributeMissing(String)
    /// No AF_BLUETOOTH sockets on this machine.
    case noBluetoothSupport
    /// An RFCOMM socket call failed.
    case linkFailed(operation: String, errno: Int32)
    /// The printer closed the link.
    case linkClosed
    /// The reply was not complete in time (`received` bytes had arrived).
    case replyTimeout(received: Int)
    /// A name or value `SGD` refuses to put in a command (a quote, a line break, non-ASCII, too
    /// long): nothing was sent.
    case invalidPrinterCommand(SGDError)
    /// The printer's `~HS` reply is complete but not a valid host status reply.
    case malformedStatus(HostStatusError)
    /// The printer's reply to `getvar name` is unusable: `.unknownSetting` when it answered `"?"`.
    case sgdReply(name: String, SGDError)

    // --exec
    /// The command line is empty or its quoting is unbalanced.
    case invalidCommandLine(String)
    /// A tag value cannot go into an environment variable (it holds a NUL byte).
    case unsafeValue(field: String)
    /// The program was not found (on PATH, or at the given path).
    case commandNotFound(String)
    /// The program exists but could not be started (errno kept).
    case commandNotStartable(String, errno: Int32)
    /// The program ran longer than the timeout and was stopped.
    case commandTimedOut(String, seconds: Double)
    /// The program was killed by a signal.
    case commandKilled(String, signal: Int32)

    public var description: String {
        switch self {
        case .noBluetoothAddress(let serial):
            return "printer \(serial): the tag has no Bluetooth address (mB / mBL); pair it another way or use --exec / --json"
        case .busUnavailable(let reason):
            return "cannot reach the system D-Bus (\(reason)): is dbus running? (DBUS_SYSTEM_BUS_ADDRESS overrides the socket)"
        case .bluetoothServiceUnavailable:
            return "bluetoothd is not running (nothing owns org.bluez on the system bus): start it with `systemctl start bluetooth`"
        case .noAdapter:
            return "no Bluetooth adapter: plug one in or check `bluetoothctl list`"
        case .adapterNotFound(let name):
            return "no Bluetooth adapter named \(name): see `bluetoothctl list` for the adapters BlueZ has"
        case .adapterPowerFailed(let adapter, let reason):
            return "adapter \(adapter) is off and could not be powered (\(reason)): check `rfkill list` and `bluetoothctl power on`"
        case .printerNotFound(let mac, let seconds):
            return "printer \(mac) not found: is it on and in range? (scanned for \(Self.format(seconds)) s; Link-OS 6 printers are not discoverable by default, but BlueZ still finds them by address when they are on)"
        case .bluez(let failure):
            return failure.description
        case .servicesNotResolved(let mac):
            return "printer \(mac) connected but its Bluetooth LE services did not appear: move closer and try again"
        case .gattAttributeMissing(let uuid):
            return "the printer has no GATT attribute \(uuid): is it a Zebra Link-OS printer with Bluetooth LE enabled (bluetooth.le.controller_mode)?"
        case .noBluetoothSupport:
            return "this machine has no Bluetooth support (AF_BLUETOOTH sockets are unavailable): load the bluetooth kernel modules or use another machine"
        case .linkFailed(let op, let code):
            return "Bluetooth link: \(op) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .linkClosed:
            return "the printer closed the Bluetooth link"
        case .replyTimeout(let received):
            return "the printer's reply was incomplete after the timeout (\(received) bytes received): is it busy or asleep?"
        case .invalidPrinterCommand(let error):
            return "cannot send this to the printer: \(error) (SGD names are visible ASCII, values printable ASCII, neither with a double quote)"
        case .malformedStatus(let error):
            return "the printer's host status reply is unusable (\(error)): is it a Zebra ZPL printer? try again"
        case .sgdReply(let name, .unknownSetting):
            return "the printer does not know the setting \(name.debugDescription): check its name in the printer's SGD manual"
        case .sgdReply(let name, let error):
            return "the printer's reply to getvar \(name.debugDescription) is unusable: \(error)"
        case .invalidCommandLine(let why):
            return "--exec: \(why)"
        case .unsafeValue(let field):
            return "--exec: the tag's \(field) contains a NUL byte and cannot be passed in the environment"
        case .commandNotFound(let cmd):
            return "--exec: command not found: \(cmd) (give a path or check PATH)"
        case .commandNotStartable(let cmd, let code):
            return "--exec: cannot run \(cmd): \(String(cString: strerror(code)))"
        case .commandTimedOut(let cmd, let seconds):
            return "--exec: \(cmd) did not finish within \(Self.format(seconds)) s and was stopped"
        case .commandKilled(let cmd, let signal):
            return "--exec: \(cmd) was killed by signal \(signal)"
        }
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String((seconds * 10).rounded() / 10)
    }
}

extension Duration {
    /// Seconds as a Double (for messages).
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
