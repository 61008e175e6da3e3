import SDBus

/// A failed BlueZ call, classified by its D-Bus error name (BlueZ doc/org.bluez.Device.rst etc.),
/// with what to do about it.
public struct BlueZFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Equatable, Sendable {
        case authenticationFailed, authenticationCanceled, authenticationRejected, authenticationTimeout
        case connectionAttemptFailed, notReady, failed, inProgress, doesNotExist, alreadyExists
        case notSupported, notPermitted, notAvailable, invalidArguments, noReply, other
    }

    /// The BlueZ operation: `Pair`, `Connect`, `StartDiscovery`, `Trust`, `WriteValue`…
    public var operation: String
    /// The printer's address as text.
    public var address: String
    public var kind: Kind
    /// The D-Bus error name as received (`org.bluez.Error.AuthenticationFailed`).
    public var name: String
    /// BlueZ's own text.
    public var message: String

    public init(operation: String, address: String, name: String, message: String) {
        self.operation = operation
        self.address = address
        self.name = name
        self.message = message
        self.kind = Self.kind(for: name)
    }

    package init(operation: String, address: String, error: DBusError) {
        self.init(operation: operation, address: address, name: error.name, message: error.message)
        if error.isTimeout { kind = .noReply }
    }

    static func kind(for name: String) -> Kind {
        switch name {
        case "org.bluez.Error.AuthenticationFailed": return .authenticationFailed
        case "org.bluez.Error.AuthenticationCanceled": return .authenticationCanceled
        case "org.bluez.Error.AuthenticationRejected": return .authenticationRejected
        case "org.bluez.Error.AuthenticationTimeout": return .authenticationTimeout
        case "org.bluez.Error.ConnectionAttemptFailed": return .connectionAttemptFailed
        case "org.bluez.Error.NotReady": return .notReady
        case "org.bluez.Error.Failed": return .failed
        case "org.bluez.Error.InProgress": return .inProgress
        case "org.bluez.Error.DoesNotExist", "org.freedesktop.DBus.Error.UnknownObject": return .doesNotExist
        case "org.bluez.Error.AlreadyExists": return .alreadyExists
        case "org.bluez.Error.NotSupported": return .notSupported
        case "org.bluez.Error.NotPermitted", "org.bluez.Error.NotAuthorized",
             "org.freedesktop.DBus.Error.AccessDenied": return .notPermitted
        case "org.bluez.Error.NotAvailable": return .notAvailable
        case "org.bluez.Error.InvalidArguments", "org.freedesktop.DBus.Error.InvalidArgs": return .invalidArguments
        case DBusError.noReplyName, DBusError.timeoutName: return .noReply
        default: return .other
        }
    }

    /// What happened, in words.
    public var summary: String {
        switch kind {
        case .authenticationFailed: return "the printer refused the pairing keys"
        case .authenticationCanceled: return "pairing was canceled"
        case .authenticationRejected: return "the pairing request was rejected"
        case .authenticationTimeout: return "the printer did not answer the pairing request in time"
        case .connectionAttemptFailed: return "could not connect to the printer"
        case .notReady: return "the Bluetooth adapter is not ready"
        case .failed: return "BlueZ reported a failure"
        case .inProgress: return "another operation with this printer is already in progress"
        case .doesNotExist: return "BlueZ no longer knows this device"
        case .alreadyExists: return "it already exists"
        case .notSupported: return "the operation is not supported by this adapter or printer"
        case .notPermitted: return "the operation is not permitted"
        case .notAvailable: return "the service is not available on the printer"
        case .invalidArguments: return "BlueZ rejected the request's arguments"
        case .noReply: return "bluetoothd did not answer in time"
        case .other: return "BlueZ returned an unexpected error"
        }
    }

    /// What the user can do.
    public var advice: String {
        switch kind {
        case .authenticationFailed:
            return "remove the old pairing on both sides (`bluetoothctl remove \(address)`; on the printer, reset its Bluetooth settings) and try again; if bluetooth.authentication is on, pass its PIN"
        case .authenticationCanceled:
            return "try again and accept the request if the printer or desktop asks"
        case .authenticationRejected:
            return "check the printer's bluetooth.authentication / PIN setting (a PIN is needed when it is on)"
        case .authenticationTimeout:
            return "make sure the printer is on, awake and within a few metres, then try again"
        case .connectionAttemptFailed:
            return "make sure the printer is on, in range and not connected to another host, then try again"
        case .notReady:
            return "power the adapter on (`bluetoothctl power on`) and check `rfkill list`"
        case .failed:
            return "try again; if it persists, restart bluetooth.service and power-cycle the printer"
        case .inProgress:
            return "wait for the other pairing or connection to finish, then try again"
        case .doesNotExist:
            return "try again so the printer is discovered afresh"
        case .alreadyExists:
            return "nothing to do"
        case .notSupported:
            return "for a Bluetooth LE printer, check `bluetooth.le.controller_mode` (both or le)"
        case .notPermitted:
            return "run as a user allowed to manage Bluetooth (e.g. in the bluetooth group) or via polkit"
        case .notAvailable:
            return "the printer may not offer this profile; pairing itself may still have succeeded"
        case .invalidArguments:
            return "this is a bug in nfctap or an unsupported BlueZ version: please report it with `bluetoothctl --version`"
        case .noReply:
            return "check that bluetooth.service is running (`systemctl status bluetooth`) and try again"
        case .other:
            return "see `journalctl -u bluetooth` for details"
        }
    }

    public var description: String {
        let detail = message.isEmpty ? name : "\(name): \(message)"
        return "\(operation) \(address): \(summary) (\(detail)); \(advice)"
    }
}
