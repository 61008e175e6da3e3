import SafeText
import Pairing
import RecordOutput
import ZebraPrinter

/// How `pair` shows what happened: human lines for stderr and the pieces of its `--json` object.
///
/// The `--json` object (one line on stdout): `printer` (the `zebra` object of `decode`), `handler`
/// (`bluez`, `exec`, `json`), then as far as the run got: `result`, `set` (name → value),
/// `variables` (name → value), `status`, `testLabel` (true when sent), and `error` (the message,
/// exit 1) or `dryRun` (the sentence, exit 0).
package enum PairReport {
    // MARK: Pairing result

    package static func json(_ result: PairingResult) -> JSONValue {
        switch result {
        case .paired(let pairing), .alreadyPaired(let pairing):
            let outcome = if case .paired = result { "paired" } else { "alreadyPaired" }
            return .object([
                ("outcome", .string(outcome)),
                ("address", .string(pairing.address.description)),
                ("transport", .string(pairing.transport.rawValue)),
                ("adapter", .string(pairing.adapter)),
                ("device", .string(pairing.devicePath)),
                ("discovered", .bool(pairing.discovered)),
                ("trusted", .bool(pairing.trusted)),
                ("connected", .bool(pairing.connected)),
                ("deviceInformation", pairing.deviceInformation.map(json) ?? .null),
            ])
        case .printed(let line):
            return .object([("outcome", .string("printed")), ("line", .string(line))])
        case .handedOff(let outcome):
            return .object([
                ("outcome", .string("handedOff")),
                ("command", .array(outcome.arguments.map(JSONValue.string))),
                ("exitStatus", .int(Int(outcome.exitStatus))),
            ])
        }
    }

    package static func json(_ info: DeviceInformation) -> JSONValue {
        func text(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        return .object([
            ("model", text(info.model)), ("serial", text(info.serial)), ("firmware", text(info.firmware)),
            ("hardware", text(info.hardware)), ("software", text(info.software)), ("manufacturer", text(info.manufacturer)),
        ])
    }

    /// What the handler did, for stderr.
    package static func lines(_ result: PairingResult, identity: PrinterIdentity) -> [String] {
        let serial = SafeText.escaped(identity.serial)
        switch result {
        case .paired(let p), .alreadyPaired(let p):
            let kind = p.transport == .le ? "Bluetooth LE" : "Bluetooth Classic"
            var state = ["trusted" + (p.trusted ? "" : ": no"), p.connected ? "connected" : "not connected"]
            if p.discovered { state.append("found by scanning") }
            let verb = if case .paired = result { "Paired printer \(serial)" } else { "Printer \(serial) was already paired" }
            var lines = ["\(verb) at \(p.address) over \(kind) on \(p.adapter) (\(state.joined(separator: ", ")))"]
            if let info = p.deviceInformation {
                let parts = [("model", info.model), ("serial", info.serial), ("firmware", info.firmware),
                             ("manufacturer", info.manufacturer)]
                    .compactMap { name, value in value.map { "\(name) \(SafeText.escaped($0))" } }
                if !parts.isEmpty { lines.append("  Device Information: " + parts.joined(separator: ", ")) }
            }
            return lines
        case .printed:
            return ["Printed printer \(serial) as one JSON line on stdout"]
        case .handedOff(let outcome):
            return ["\(SafeText.escaped(outcome.arguments[0])) handled printer \(serial) (exit status \(outcome.exitStatus))"]
        }
    }

    // MARK: Host status

    package static func json(_ s: PrinterStatus) -> JSONValue {
        .object([
            ("ready", .bool(s.readyToPrint)),
            ("problems", .array(s.problems.map(JSONValue.string))),
            ("paperOut", .bool(s.paperOut)),
            ("paused", .bool(s.paused)),
            ("headUp", .bool(s.headUp)),
            ("ribbonOut", .bool(s.ribbonOut)),
            ("underTemperature", .bool(s.underTemperature)),
            ("overTemperature", .bool(s.overTemperature)),
            ("printMode", .string(name(s.printMode))),
            ("thermalTransfer", .bool(s.thermalTransferMode)),
            ("labelLengthDots", .int(s.labelLengthDots)),
            ("labelsRemaining", .int(s.labelsRemaining)),
            ("labelWaiting", .bool(s.labelWaiting)),
            ("formatsInBuffer", .int(s.formatsInBuffer)),
            ("bufferFull", .bool(s.bufferFull)),
            ("partialFormat", .bool(s.partialFormat)),
            ("corruptRAM", .bool(s.corruptRAM)),
            ("graphicImagesStored", .int(s.graphicImagesStored)),
        ])
    }

    package static func lines(_ s: PrinterStatus) -> [String] {
        [
            "Printer status: \(s.summary)",
            "  print mode \(name(s.printMode)), \(s.thermalTransferMode ? "thermal transfer" : "direct thermal"), label length \(s.labelLengthDots) dots",
            "  \(s.labelsRemaining) label\(s.labelsRemaining == 1 ? "" : "s") remaining, \(s.formatsInBuffer) format\(s.formatsInBuffer == 1 ? "" : "s") in buffer"
                + (s.labelWaiting ? ", a label waits to be taken" : "") + (s.bufferFull ? ", buffer full" : "")
                + (s.corruptRAM ? ", corrupt RAM (configuration lost)" : ""),
        ]
    }

    /// The ZPL manual's print mode names (docs/zebra.md §3); an unknown code as sent.
    package static func name(_ mode: PrintMode) -> String {
        switch mode {
        case .rewind: return "rewind"
        case .peelOff: return "peel-off"
        case .tearOff: return "tear-off"
        case .cutter: return "cutter"
        case .applicator: return "applicator"
        case .delayedCut: return "delayed cut"
        case .linerlessPeel: return "linerless peel"
        case .linerlessRewind: return "linerless rewind"
        case .partialCutter: return "partial cutter"
        case .rfid: return "RFID"
        case .kiosk: return "kiosk"
        case .unknown(let code): return "unknown (\(code))"
        }
    }

    // MARK: Dry run

    /// "then would …" for the conversation requests, or "" when there are none.
    package static func plan(_ requests: [PrinterRequest]) -> String {
        guard !requests.isEmpty else { return "" }
        let steps = requests.map { request -> String in
            switch request {
            case let .setVariable(name, value): return "set \(name) to \"\(value)\""
            case let .getVariable(name): return "read \(name)"
            case .hostStatus: return "read the host status (~HS)"
            case .testLabel: return "print the test label"
            }
        }
        let list = steps.count == 1 ? steps[0] : steps.dropLast().joined(separator: ", ") + " and " + steps.last!
        return "; then it would \(list)"
    }
}
