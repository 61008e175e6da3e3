import RecordOutput
import ZebraPrinter

/// The printer identity as one JSON object: the `--json` line and the `--exec` program's stdin.
///
/// Keys are sorted and always present (`null` when the tag lacks the field); a MAC of all
/// zeros counts as absent (docs/zebra.md §1). Example:
/// `{"bluetooth":"CC:78:AB:3E:BA:E0","bluetoothLE":null,"ethernet":null,"model":"ZQ320-A0E02T0-00","other":[],"serial":"XXZFJ170700336","version":"0","wifi":null}`
public enum IdentityJSON {
    /// One line, no trailing newline. Control characters in values are escaped, so the line
    /// never breaks.
    public static func line(_ identity: PrinterIdentity) -> String {
        func text(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        return JSONValue.object([
            ("bluetooth", text(present(identity.bluetooth))),
            ("bluetoothLE", text(present(identity.bluetoothLE))),
            ("ethernet", text(present(identity.ethernet))),
            ("model", text(identity.model)),
            ("other", .array(identity.otherFields.map { .object([("key", .string($0.key)), ("value", .string($0.value))]) })),
            ("serial", .string(identity.serial)),
            ("version", text(identity.version)),
            ("wifi", text(present(identity.wifi))),
        ]).jsonText
    }

    /// A MAC the tag really has: nil for absent or all-zero.
    static func present(_ mac: MACAddress?) -> String? {
        guard let mac, !mac.isZero else { return nil }
        return mac.description
    }
}
