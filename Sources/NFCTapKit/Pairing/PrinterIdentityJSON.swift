import NDEF
import RecordOutput
import ZebraPrinter

/// The `"zebra"` object of `decode`/`scan` output: absent interfaces are `null`.
package enum PrinterIdentityJSON {
    package static func object(_ identity: PrinterIdentity) -> JSONValue {
        func mac(_ m: MACAddress?) -> JSONValue { m.map { .string($0.description) } ?? .null }
        var fields: [(String, JSONValue)] = [
            ("serial", .string(identity.serial)),
            ("model", identity.model.map(JSONValue.string) ?? .null),
            ("bluetooth", mac(identity.bluetooth)),
            ("bluetoothLE", mac(identity.bluetoothLE)),
            ("wifi", mac(identity.wifi)),
            ("ethernet", mac(identity.ethernet)),
            ("version", identity.version.map(JSONValue.string) ?? .null),
        ]
        if !identity.otherFields.isEmpty {
            fields.append(("other", .object(identity.otherFields.map { ($0.key, .string($0.value)) })))
        }
        return .object(fields)
    }

    /// Human lines for the text output.
    package static func lines(_ identity: PrinterIdentity) -> [String] {
        var lines = ["Zebra printer: serial \(identity.serial)" + (identity.model.map { ", model \($0)" } ?? "")]
        if let m = identity.bluetooth { lines.append("  Bluetooth Classic: \(m)") }
        if let m = identity.bluetoothLE { lines.append("  Bluetooth LE: \(m)") }
        if let m = identity.wifi { lines.append("  Wi-Fi: \(m)") }
        if let m = identity.ethernet { lines.append("  Ethernet: \(m)") }
        return lines
    }

    /// `"zebra"` or `"zebraError"` for a message, nothing for a non-Zebra tag.
    package static func fields(for message: NDEFMessage) -> [(String, JSONValue)] {
        do {
            guard let identity = try ZebraTag.identity(from: message) else { return [] }
            return [("zebra", object(identity))]
        } catch {
            return [("zebraError", .string(String(describing: error)))]
        }
    }
}
