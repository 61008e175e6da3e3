import CoreNFCLinux
import NDEF
import ZebraPrinter

/// What an inventory record says about a tag's content, from the NDEF bytes of a report.
package enum InventorySummary {
    /// The first URI (URI record, Smart Poster, absolute URI) or text record, in record order;
    /// when there is neither, the first record's type (`application/json`, `example.com:t`);
    /// nil for an empty or undecodable message (the report's error says why).
    package static func summary(of message: NDEFMessage) -> String? {
        var fallback: String?
        for record in message.records {
            guard let parsed = try? record.parsed(mode: .relaxed) else { continue }
            switch parsed {
            case let .uri(uri): return uri.uri
            case let .smartPoster(poster): return poster.uri.uri
            case let .absoluteURI(absolute): return absolute.uri
            case let .text(text): return text.text
            case let .media(media): fallback = fallback ?? media.mediaType
            case let .external(external): fallback = fallback ?? external.name
            case let .androidApplication(app): fallback = fallback ?? "android.com:pkg " + app.packageName
            case .empty, .unknown: continue
            }
        }
        return fallback
    }


    /// The printer serial when the tag is a Zebra printer's.
    package static func zebraSerial(of message: NDEFMessage) -> String? {
        (try? ZebraTag.identity(from: message))??.serial
    }
}
