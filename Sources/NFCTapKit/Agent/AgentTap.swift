import CoreNFCLinux
import DesktopIntegration
import NDEF
import ZebraPrinter

/// One tag the agent read, what the notification says about it and what its action does.
package struct AgentTap {
    /// What the tag holds, for the notification's summary.
    package enum Content: Equatable {
        case url(String)
        case zebra(PrinterIdentity)
        case text(String)
        case media(String)
        case otherRecords
        case empty
        case noNDEF
        case malformed
        case unreadable(String)
    }

    /// What "Open" (or "Pair") does.
    package enum Action: Equatable {
        /// Launch the application claiming the URL, with the message.
        case launch(URLClaim, url: String)
        /// Open the URL with the user's default handler (web, tel:, mailto: only).
        case openWithDefault(String)
        /// Run the configured pairing handler.
        case pair(PrinterIdentity)

        /// The notification's action key.
        package var key: String {
            if case .pair = self { return "pair" }
            return "open"
        }
        package var label: String {
            if case .pair = self { return "Pair" }
            return "Open"
        }
    }

    package let report: NFCTagReport
    package let content: Content
    package let action: Action?
    /// A URL that nothing may open, and why (a scheme beyond web/tel/mailto and no claim, a URL
    /// `TagURL` refuses, userinfo before the host).
    package let refusedURL: String?
    package let refusal: String?
    /// The tag's URL as parsed (nil when it is not one or `TagURL` refuses it).
    package let parsedURL: TagURL?

    /// Classifies a report; `claims` answers which application claims a URL.
    package init(report: NFCTagReport, claims: (String) -> URLClaim?) {
        self.report = report
        let content = Self.content(of: report)
        self.content = content
        var parsedURL: TagURL?
        switch content {
        case let .url(url):
            let parsed = Result { () throws(TagURLError) in try TagURL(url) }
            parsedURL = try? parsed.get()
            if case let .failure(error) = parsed {
                action = nil
                refusedURL = url
                refusal = "Not opened: not a well-formed link (\(error))"
            } else if let claim = claims(url) {
                action = .launch(claim, url: url)
                refusedURL = nil
                refusal = nil
            } else if URLSchemePolicy.mayOpenWithoutClaim(url) {
                action = .openWithDefault(url)
                refusedURL = nil
                refusal = nil
            } else if let parsedURL, case let fields = URLSchemePolicy.unsafeMailFields(parsedURL), !fields.isEmpty {
                action = nil
                refusedURL = url
                refusal = "Not opened: the mail link sets \(fields.joined(separator: ", ")), not only to, cc, subject and body"
            } else if let parsedURL, parsedURL.userinfo != nil {
                // `https://bank.example.com.…@evil.example/` goes to evil.example (docs/desktop-agent.md §2).
                action = nil
                refusedURL = url
                refusal = "Not opened: this link goes to \(Self.hostLine(parsedURL.displayHost ?? "", limit: 120)); "
                    + "the text before \"@\" is a user name, not the site"
            } else {
                action = nil
                refusedURL = url
                refusal = "No application opens \(parsedURL?.scheme ?? "such") links"
            }
        case let .zebra(identity):
            action = .pair(identity)
            refusedURL = nil
            refusal = nil
        default:
            action = nil
            refusedURL = nil
            refusal = nil
        }
        self.parsedURL = parsedURL
    }

    package static func content(of report: NFCTagReport) -> Content {
        guard report.completed else { return .unreadable(report.error?.localizedDescription ?? "read incomplete") }
        guard let bytes = report.ndefBytes else { return .noNDEF }
        if bytes.isEmpty { return .empty }
        guard let message = report.ndefMessage else { return .malformed }
        if let identity = try? ZebraTag.identity(from: message) { return .zebra(identity) }
        var firstText: String?
        var firstMedia: String?
        for record in message.records {
            switch try? record.parsed(mode: .relaxed) {
            case let .uri(uri)?: return .url(uri.uri)
            case let .smartPoster(poster)?: return .url(poster.uri.uri)
            case let .absoluteURI(absolute)?: return .url(absolute.uri)
            case let .text(text)?: if firstText == nil { firstText = text.text }
            case let .media(media)?: if firstMedia == nil { firstMedia = media.mediaType }
            default: break
            }
        }
        if let firstText { return .text(firstText) }
        if let firstMedia { return .media(firstMedia) }
        return .otherRecords
    }

    /// The notification's summary (plain text: the spec allows no markup there). For a URL with a
    /// host, the host (with a port that is not the default): what the user must see first, and
    /// never cut away by a long userinfo or path (docs/desktop-agent.md §2).
    package var summary: String {
        let text: String
        switch content {
        case let .url(url): text = parsedURL?.displayHost.map { Self.hostLine($0, limit: NotificationText.maximumSummary) } ?? url
        case let .zebra(identity): text = "Zebra printer \(identity.serial)"
        case let .text(t): text = t
        case let .media(type): text = "NFC tag: \(type)"
        case .otherRecords: text = "NFC tag"
        case .empty: text = "empty tag"
        case .noNDEF: text = "NFC tag without NDEF"
        case .malformed: text = "unreadable NDEF message"
        case .unreadable: text = "tag not read"
        }
        return NotificationText.summary(text)
    }

    /// The body's lines, before sanitising and escaping (`NotificationText.body(lines:markup:)`
    /// makes each one line): the URL, what the action does, then where the tag was.
    package var bodyLines: [String] {
        var lines: [String] = []
        if case let .url(url) = content, parsedURL?.displayHost != nil { lines.append(url) }
        switch action {
        case let .launch(claim, _)?: lines.append("Open in \(claim.application.name)")
        case let .openWithDefault(url)?:
            let scheme = URLSchemePolicy.scheme(of: url) ?? ""
            lines.append(scheme == "http" || scheme == "https" ? "Open in your web browser" : "Open with your default application")
        case let .pair(identity)?:
            lines.append("Pair with this printer" + (identity.model.map { " (\($0))" } ?? ""))
        case nil:
            if case let .text(text) = content { lines.append(text) }
            if let refusal { lines.append(refusal) }
            if case let .unreadable(reason) = content { lines.append("Hold the tag still and tap again (\(reason))") }
        }
        lines.append("Tag \(report.tag.uid.hexString(separator: ":")) on \(report.tag.reader.name)")
        return lines
    }

    /// A host that fits `limit` characters: a longer one loses its start, never its end, where the
    /// registrable domain is (`…login.verify.evil.example`).
    package static func hostLine(_ host: String, limit: Int) -> String {
        host.count <= limit ? host : "…" + host.suffix(limit - 1)
    }

    /// Notify's actions: key/label pairs (`default` is what clicking the notification does).
    package var actions: [String] {
        guard let action else { return [] }
        return ["default", action.label, action.key, action.label]
    }
}
