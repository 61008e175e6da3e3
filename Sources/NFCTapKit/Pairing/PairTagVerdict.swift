import SafeText
import CoreNFCLinux
import NDEF
import ZebraPrinter

/// What one tapped tag means to `nfctap pair`.
package enum PairTagVerdict {
    /// A Zebra printer tag with a usable identity.
    case printer(PrinterIdentity)
    /// Not a Zebra printer tag; the text says what the tag holds ("https://…", "no NDEF data").
    case notZebra(holds: String)
    /// A Zebra tag URL (scheme, host and path are Zebra's) whose query is unusable.
    case unusableZebra(ZebraTagError)
    /// The tag could not be read to the end (moved away, reader error): worth another tap.
    case unreadable(String)

    package init(_ report: NFCTagReport) {
        guard report.completed else {
            self = .unreadable(report.error?.message ?? "the read did not finish")
            return
        }
        guard let bytes = report.ndefBytes else {
            self = .notZebra(holds: "no NDEF data")
            return
        }
        guard !bytes.isEmpty else {
            self = .notZebra(holds: "an empty NDEF message")
            return
        }
        guard let message = report.ndefMessage else {
            self = .notZebra(holds: "a malformed NDEF message")
            return
        }
        do {
            if let identity = try ZebraTag.identity(from: message) {
                self = .printer(identity)
            } else {
                self = .notZebra(holds: Self.summary(of: message))
            }
        } catch let error as ZebraTagError {
            self = .unusableZebra(error)
        } catch {
            self = .notZebra(holds: "a message that cannot be decoded")
        }
    }

    package var isPrinter: Bool {
        if case .printer = self { return true }
        return false
    }

    /// The first record for people (a URI as is, anything else as `decode` shows it), and how many
    /// more there are. Terminal-safe.
    package static func summary(of message: NDEFMessage) -> String {
        guard let first = message.records.first else { return "an empty NDEF message" }
        var text: String
        if first.tnf == .wellKnown, first.type == URIRecord.type, let uri = try? URIRecord(record: first, mode: .relaxed).uri {
            text = SafeText.escaped(uri)
        } else if let line = (try? NDEFText.lines(NDEFMessage(records: [first]), mode: .relaxed))?.first {
            text = line.hasPrefix("1: ") ? String(line.dropFirst(3)) : line
        } else {
            text = "a record of TNF \(first.tnf.rawValue)"
        }
        let more = message.records.count - 1
        if more > 0 { text += " (and \(more) more record\(more == 1 ? "" : "s"))" }
        return text
    }

    /// The line shown for a tag that is not (usably) a printer's.
    package var message: String {
        switch self {
        case .printer(let identity):
            return "printer \(SafeText.escaped(identity.serial))"
        case .notZebra(let holds):
            return "not a Zebra printer tag: it holds \(holds); tap the printer's Print Touch logo"
        case .unusableZebra(let error):
            return "this is a Zebra printer tag, but it cannot be used: \(SafeText.escaped(error.description))"
        case .unreadable(let why):
            return "could not read the tag (\(SafeText.escaped(why))): hold it still against the reader"
        }
    }
}
