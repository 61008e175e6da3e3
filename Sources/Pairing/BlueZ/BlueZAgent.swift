import SDBus

/// The `org.bluez.Agent1` object nfctap exports while it pairs (BlueZ doc/org.bluez.Agent.rst).
///
/// It accepts Just Works and numeric-comparison requests for the one printer being paired
/// (Zebra printers use SSP with no PIN by default, docs/zebra.md §2), gives the configured
/// PIN when one is asked for, and rejects everything else: requests for other devices, and
/// PIN/passkey requests when no PIN was given.
final class BlueZAgent {
    static let path = "/org/nfctap/agent"

    enum Capability: String {
        case noInputNoOutput = "NoInputNoOutput"
        case displayYesNo = "DisplayYesNo"
        case keyboardDisplay = "KeyboardDisplay"
    }

    /// Agent calls received, in order (`RequestConfirmation 123456`), for logs and tests.
    private(set) var events: [String] = []
    private let devicePath: String
    private let pin: String?

    init(devicePath: String, pin: String?) {
        self.devicePath = devicePath
        self.pin = pin
    }

    /// The capability to register: with a PIN to give we can "type" it.
    var capability: Capability { pin == nil ? .displayYesNo : .keyboardDisplay }

    private static let rejected = "org.bluez.Error.Rejected"

    /// Answers one Agent1 call.
    func handle(_ call: DBusMethodCall) -> DBusMethodReply {
        guard call.interface == BlueZ.agentInterface else {
            if call.interface == "org.freedesktop.DBus.Introspectable" && call.member == "Introspect" {
                return .success([.string(Self.introspection)])
            }
            return .notHandled
        }
        let device = call.arguments.first?.string
        events.append(([call.member] + call.arguments.dropFirst().map { "\($0.integer.map(String.init) ?? $0.string ?? "")" })
            .joined(separator: " "))
        let ours = device == devicePath
        switch call.member {
        case "Release", "Cancel":
            return .success([])
        case "RequestConfirmation", "RequestAuthorization", "AuthorizeService":
            // Numeric comparison / Just Works: nothing to compare against on a headless printer.
            return ours ? .success([]) : .error(name: Self.rejected, message: "nfctap only pairs \(devicePath)")
        case "DisplayPinCode", "DisplayPasskey":
            return .success([])
        case "RequestPinCode":
            guard ours, let pin else {
                return .error(name: Self.rejected, message: "no PIN configured (the printer has bluetooth.authentication on)")
            }
            return .success([.string(pin)])
        case "RequestPasskey":
            guard ours, let pin, let passkey = UInt32(pin), passkey <= 999_999 else {
                return .error(name: Self.rejected, message: "no numeric passkey configured")
            }
            return .success([.uint32(passkey)])
        default:
            return .notHandled
        }
    }

    private static let introspection = """
    <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
    <node><interface name="org.bluez.Agent1">
    <method name="Release"/>
    <method name="RequestPinCode"><arg type="o" direction="in"/><arg type="s" direction="out"/></method>
    <method name="DisplayPinCode"><arg type="o" direction="in"/><arg type="s" direction="in"/></method>
    <method name="RequestPasskey"><arg type="o" direction="in"/><arg type="u" direction="out"/></method>
    <method name="DisplayPasskey"><arg type="o" direction="in"/><arg type="u" direction="in"/><arg type="q" direction="in"/></method>
    <method name="RequestConfirmation"><arg type="o" direction="in"/><arg type="u" direction="in"/></method>
    <method name="RequestAuthorization"><arg type="o" direction="in"/></method>
    <method name="AuthorizeService"><arg type="o" direction="in"/><arg type="s" direction="in"/></method>
    <method name="Cancel"/>
    </interface></node>
    """
}
