import SafeText
import NDEF
import NFCTags
import ReaderCore
import RecordOutput
import ZebraPrinter

/// Tag-specific additions to `decode`, `scan` and the tag reports: a Zebra printer's identity.
package enum TagSpecificDetails {
    /// Fields appended after `records` in a JSON object (the Zebra printer decoding adds `"zebra"`).
    package static func jsonFields(for message: NDEFMessage) -> [(String, JSONValue)] {
        PrinterIdentityJSON.fields(for: message)
    }

    /// Lines after the record lines of the text output (Zebra printer identity).
    package static func lines(for message: NDEFMessage) -> [String] {
        do {
            guard let identity = try ZebraTag.identity(from: message) else { return [] }
            return PrinterIdentityJSON.lines(identity)
        } catch {
            return ["Zebra tag, but unusable: " + SafeText.escaped(String(describing: error))]
        }
    }

    /// `"iso15693"` for ISO 15693 (Type 5) tags: the manufacturer from the UID, the memory and IC
    /// reference from Get System Info (docs/tags-and-readers.md §7.4, §7.5); nothing for other tags.
    package static func jsonFields(uid: [UInt8], details: NDEFTagDetails?) -> [(String, JSONValue)] {
        guard uid.count == 8, uid[0] == 0xE0 else { return [] }
        let info = details?.iso15693
        let fields: [(String, JSONValue)] = [
            ("manufacturerCode", .int(Int(uid[1]))),
            ("manufacturer", ISO15693Manufacturer.name(uid[1]).map(JSONValue.string) ?? .null),
            ("blockSize", info?.blockSize.map(JSONValue.int) ?? .null),
            ("blockCount", info?.blockCount.map(JSONValue.int) ?? .null),
            ("icReference", info?.icReference.map { .int(Int($0)) } ?? .null),
            ("dsfid", info?.dsfid.map { .int(Int($0)) } ?? .null),
            ("afi", info?.afi.map { .int(Int($0)) } ?? .null),
        ]
        return [("iso15693", .object(fields))]
    }
}
