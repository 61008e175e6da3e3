import NDEF
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
            return ["Zebra tag, but unusable: " + NDEFText.safe(String(describing: error))]
        }
    }
}
