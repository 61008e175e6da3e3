import SafeText
import CoreNFCLinux
import NDEF
import ReaderCore
import RecordOutput

/// One tag as `scan`, `inventory`, `kiosk` and `demo` print it: the `decode` object
/// (`records`, `zebra`) plus `uid`, `type`, `product`, `capacity`, `writable`, `reader`,
/// and `error`/`errorCode` (Core NFC code) when the tag could not be read to the end.
package enum TagReportJSON {
    package static func object(_ report: NFCTagReport, extra: [(String, JSONValue)] = []) -> JSONValue {
        var fields: [(String, JSONValue)] = []
        var decodeError: String?
        if let bytes = report.ndefBytes {
            if bytes.isEmpty {
                fields.append(("records", .array([])))
            } else {
                do {
                    let message = try decodedMessage(report)
                    if case let .object(decoded) = try NDEFJSON.message(message, mode: .relaxed,
                                                                         extraFields: PrinterIdentityJSON.fields(for: message)) {
                        fields += decoded
                    }
                } catch {
                    decodeError = "malformed NDEF message: \(error)"
                    fields.append(("ndef", .string(bytes.hexString)))
                }
            }
        }
        let details = report.details
        fields.append(("uid", .string(report.tag.uid.hexString)))
        if let id = report.ndefMessage.flatMap(HomeAssistantTag.id(in:)) { fields.append(("haTag", .string(id))) }
        fields += [
            ("type", .string(report.tag.technology.rawValue)),
            ("product", (details?.product ?? FeliCaJSON.product(report.tag)).map(JSONValue.string) ?? .null),
        ]
        fields += FeliCaJSON.fields(report.tag)
        // Only when the chip was not identified: the CC size's guess, never presented as the product.
        if let guess = details?.productGuess { fields.append(("productGuess", .string(guess))) }
        fields += [
            ("capacity", details?.capacity.map(JSONValue.int) ?? .null),
            ("writable", details?.status.map { .bool($0 == .readWrite) } ?? .null),
            ("reader", .string(report.tag.reader.name)),
        ]
        fields += identificationFields(report.tag)
        if report.tag.technology == .type5 { fields += TagSpecificDetails.jsonFields(uid: report.tag.uid, details: details) }
        if let error = report.error, error.code != .ndefReaderSessionErrorZeroLengthMessage {
            fields.append(("error", .string(error.localizedDescription)))
            fields.append(("errorCode", .int(error.code.rawValue)))
        } else if let decodeError {
            fields.append(("error", .string(decodeError)))
        }
        return .object(fields + extra)
    }

    /// `atr` (hex, when the backend has one) and, for ISO 14443-A tags whose backend knows them,
    /// `atqa` (2 bytes hex, as received) and `sak` (1 byte hex). PC/SC gives the ATR only.
    package static func identificationFields(_ tag: DetectedTag) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = []
        if !tag.atr.isEmpty { fields.append(("atr", .string(tag.atr.hexString))) }
        if let atqa = tag.atqa { fields.append(("atqa", .string(atqa.hexString))) }
        if let sak = tag.sak { fields.append(("sak", .string([sak].hexString))) }
        return fields
    }

    /// Human lines: a heading for the tag, then the records as `decode` prints them.
    package static func lines(_ report: NFCTagReport) -> [String] {
        let details = report.details
        // The product names the type already ("NTAG213", "Type 4 (mapping 2.0)"); without it, the technology.
        var heading = details?.product
            ?? details?.productGuess.map { "\($0)-sized (from CC)" }
            ?? FeliCaJSON.product(report.tag)
            ?? (report.tag.technology == .type4 ? "Type 4 tag" : report.tag.technology == .type2 ? "Type 2 tag"
                : report.tag.technology == .type5 ? "ISO 15693 tag" : "Tag")
        heading += " UID \(report.tag.uid.hexString(separator: ":")) on \(report.tag.reader.name)"
        if let capacity = details?.capacity { heading += ", \(capacity) bytes" }
        if let status = details?.status { heading += status == .readOnly ? ", read-only" : status == .readWrite ? ", writable" : "" }
        var lines = [SafeText.escaped(heading)]
        if let error = report.error, error.code != .ndefReaderSessionErrorZeroLengthMessage {
            lines.append("  " + SafeText.escaped(error.localizedDescription))
        }
        guard let bytes = report.ndefBytes else { return lines }
        if bytes.isEmpty { return lines + ["  (empty NDEF message)"] }
        do {
            let message = try decodedMessage(report)
            lines += try NDEFText.lines(message, mode: .relaxed).map { "  " + $0 }
            lines += TagSpecificDetails.lines(for: message).map { "  " + $0 }
        } catch {
            lines.append("  malformed NDEF message: " + SafeText.escaped(String(describing: error)))
        }
        return lines
    }

    /// The message the session decoded from the report's non-empty bytes, or why it could not.
    private static func decodedMessage(_ report: NFCTagReport) throws -> NDEFMessage {
        if let message = report.ndefMessage { return message }
        throw report.ndefDecodingError ?? NDEFError.emptyMessage
    }
}
