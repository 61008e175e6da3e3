import Foundation
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings and optionals cannot fail.
        let data = (try? encoder.encode(Payload(identity))) ?? Data("{}".utf8)
        // C1, bidi controls and U+2028/2029 as \uXXXX, like every JSON nfctap writes.
        return JSONString.hardened(json: String(decoding: data, as: UTF8.self))
    }

    /// A MAC the tag really has: nil for absent or all-zero.
    static func present(_ mac: MACAddress?) -> String? {
        guard let mac, !mac.isZero else { return nil }
        return mac.description
    }

    private struct Field: Encodable {
        var key: String
        var value: String
    }

    private struct Payload: Encodable {
        var serial: String
        var model: String?
        var bluetooth: String?
        var bluetoothLE: String?
        var wifi: String?
        var ethernet: String?
        var version: String?
        var other: [Field]

        init(_ i: PrinterIdentity) {
            serial = i.serial
            model = i.model
            bluetooth = IdentityJSON.present(i.bluetooth)
            bluetoothLE = IdentityJSON.present(i.bluetoothLE)
            wifi = IdentityJSON.present(i.wifi)
            ethernet = IdentityJSON.present(i.ethernet)
            version = i.version
            other = i.otherFields.map { Field(key: $0.key, value: $0.value) }
        }

        enum CodingKeys: String, CodingKey {
            case serial, model, bluetooth, bluetoothLE, wifi, ethernet, version, other
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(serial, forKey: .serial)
            try c.encode(model, forKey: .model)          // explicit null when absent
            try c.encode(bluetooth, forKey: .bluetooth)
            try c.encode(bluetoothLE, forKey: .bluetoothLE)
            try c.encode(wifi, forKey: .wifi)
            try c.encode(ethernet, forKey: .ethernet)
            try c.encode(version, forKey: .version)
            try c.encode(other, forKey: .other)
        }
    }
}
