import Foundation

/// `NSUserActivityTypeBrowsingWeb`: the activity type of a web link, and of an app launched by
/// background tag reading.
public let NSUserActivityTypeBrowsingWeb = "NSUserActivityTypeBrowsingWeb"

/// Foundation's `NSUserActivity` as far as Core NFC uses it (swift-corelibs-foundation has no
/// `NSUserActivity`): what an app launched for a tag is handed, with Core NFC's
/// `ndefMessagePayload`.
///
/// On iOS the system passes the activity to `application(_:continue:restorationHandler:)` (or the
/// scene's `continue`). On Linux `nfctap agent` launches the application that claims the tag's URL
/// (docs/desktop-agent.md §5), and the application gets its activity from
/// `NSUserActivity.nfcLaunchActivity()`: then `activityType` is `NSUserActivityTypeBrowsingWeb`,
/// `webpageURL` the tag's URL and `ndefMessagePayload` the tag's message, so the iOS handler code
/// runs unchanged.
open class NSUserActivity: NSObject {
    /// The kind of activity (`NSUserActivityTypeBrowsingWeb` for a tag launch).
    public let activityType: String
    open var title: String?
    open var userInfo: [AnyHashable: Any]?
    /// The web page the activity is about: the tag's URL for a tag launch.
    open var webpageURL: URL?
    private let tagMessage: NFCNDEFMessage?

    public init(activityType: String) {
        self.activityType = activityType
        tagMessage = nil
    }

    /// A tag launch's activity.
    init(tagMessage: NFCNDEFMessage, url: URL?) {
        activityType = NSUserActivityTypeBrowsingWeb
        webpageURL = url
        self.tagMessage = tagMessage
    }

    /// Core NFC: the NDEF message of the tag that launched the app. For an activity not created
    /// by background tag reading, as on iOS, a message of one record whose `typeNameFormat` is
    /// `.empty`.
    open var ndefMessagePayload: NFCNDEFMessage {
        tagMessage ?? NFCNDEFMessage(records: [NFCNDEFPayload(format: .empty, type: Data(), identifier: Data(), payload: Data())])
    }

    /// Linux: the activity this process was launched for by `nfctap agent`, nil when it was not
    /// launched for a tag (`NFCTAP_NDEF_FILE` unset). `webpageURL` is the URL the agent matched
    /// (`NFCTAP_URL`), else the message's first URI record.
    /// - Throws: `NFCLaunchPayloadError` when the message file is unreadable, too large or malformed.
    public static func nfcLaunchActivity(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> NSUserActivity? {
        let message: NFCNDEFMessage
        do {
            message = try NFCNDEFMessage.launchPayload(environment: environment)
        } catch NFCLaunchPayloadError.notLaunchedForTag {
            return nil
        }
        let url = environment[urlEnvironmentKey].flatMap { $0.isEmpty ? nil : URL(string: $0) }
            ?? message.records.lazy.compactMap { $0.wellKnownTypeURIPayload() }.first
        return NSUserActivity(tagMessage: message, url: url)
    }

    /// The environment variable with the URL the agent launched the application for.
    public static let urlEnvironmentKey = "NFCTAP_URL"

    open override var description: String {
        "<NSUserActivity: \(activityType)\(webpageURL.map { " \($0.absoluteString)" } ?? "")>"
    }
}
