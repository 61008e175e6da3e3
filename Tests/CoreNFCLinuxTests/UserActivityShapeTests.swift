// Issue 27 item 7: the shape of Home Assistant's iOS tag handling (its TagManager: a tag URL
// `https://www.home-assistant.io/tag/<id>` arrives as an NSUserActivity; `ndefMessagePayload`'s
// first record tells a background tag read from a plain link), written here in the project's own
// words and compiled with a plain `import CoreNFCLinux` where the app has `import CoreNFC`.
import CoreNFCLinux
import Testing

enum TagHandleResult: Equatable {
    enum Kind: Equatable { case nfc, generic }
    case unhandled
    case handled(tag: String, kind: Kind)
    case open(URL)
}

/// The app's tag manager: everything goes through NSUserActivity and Core NFC's names.
class ActivityTagManager {
    func handle(userActivity: NSUserActivity) -> TagHandleResult {
        guard userActivity.activityType == NSUserActivityTypeBrowsingWeb, let url = userActivity.webpageURL else {
            return .unhandled
        }
        if let tag = Self.tagIdentifier(in: url) {
            return .handled(tag: tag, kind: kind(of: userActivity))
        }
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        if let target = components?.queryItems?.first(where: { $0.name.lowercased() == "url" })?.value,
           let targetURL = URL(string: target) {
            return .open(targetURL)
        }
        return .unhandled
    }

    func kind(of userActivity: NSUserActivity) -> TagHandleResult.Kind { .generic }

    static func tagIdentifier(in url: URL) -> String? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              components.scheme == "https", components.host == "www.home-assistant.io", components.user == nil else { return nil }
        let parts = components.path.split(separator: "/")
        guard parts.count == 2, parts[0] == "tag", !parts[1].isEmpty else { return nil }
        return String(parts[1])
    }
}

@available(iOS 13.0, *)
final class CoreNFCTagManager: ActivityTagManager {
    override func kind(of userActivity: NSUserActivity) -> TagHandleResult.Kind {
        let first = userActivity.ndefMessagePayload.records.first
        // Apple: an activity not created by background tag reading carries one record of type `.empty`.
        if first == nil || first?.typeNameFormat == .empty { return .generic }
        return .nfc
    }

    /// The tag identifier from a message read in the foreground, as the app reads it.
    static func tagIdentifier(in message: NFCNDEFMessage) -> String? {
        message.records.compactMap { $0.wellKnownTypeURIPayload() }.compactMap { tagIdentifier(in: $0) }.first
    }

    static func message(for tag: String) -> NFCNDEFMessage? {
        guard let url = URL(string: "https://www.home-assistant.io/tag/\(tag)"),
              let record = NFCNDEFPayload.wellKnownTypeURIPayload(url: url) else { return nil }
        return NFCNDEFMessage(records: [record])
    }
}

@Suite struct UserActivityShapeTests {
    /// What `nfctap agent` leaves for the app it launches (docs/desktop-agent.md §5).
    static func launchEnvironment(message: [UInt8], url: String?) throws -> (env: [String: String], dir: String) {
        let dir = NSTemporaryDirectory() + "nfctap-activity-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        try Data(message).write(to: URL(fileURLWithPath: dir + "/tap.ndef"))
        var env = ["NFCTAP_NDEF_FILE": dir + "/tap.ndef"]
        env["NFCTAP_URL"] = url
        return (env, dir)
    }

    // A URI record for https://www.home-assistant.io/tag/5f0ba733 (prefix code 2: "https://www.").
    static let tagMessage: [UInt8] = [0xD1, 0x01, 0x1F, 0x55, 0x02] + Array("home-assistant.io/tag/5f0ba733".utf8)

    @Test func aTagLaunchIsHandledAsABackgroundRead() throws {
        let (env, dir) = try Self.launchEnvironment(message: Self.tagMessage, url: "https://www.home-assistant.io/tag/5f0ba733")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let activity = try #require(try NSUserActivity.nfcLaunchActivity(environment: env))
        #expect(activity.activityType == NSUserActivityTypeBrowsingWeb)
        #expect(activity.webpageURL?.absoluteString == "https://www.home-assistant.io/tag/5f0ba733")
        #expect(activity.ndefMessagePayload.records.count == 1)
        #expect(activity.ndefMessagePayload.records[0].typeNameFormat == .nfcWellKnown)
        #expect(CoreNFCTagManager().handle(userActivity: activity) == .handled(tag: "5f0ba733", kind: .nfc))
        // Without NFCTAP_URL the message's first URI is the page.
        let fromMessage = try #require(try NSUserActivity.nfcLaunchActivity(environment: ["NFCTAP_NDEF_FILE": env["NFCTAP_NDEF_FILE"]!]))
        #expect(fromMessage.webpageURL == activity.webpageURL)
    }

    @Test func aPlainLinkIsGenericAndHasTheEmptyRecord() throws {
        let activity = NSUserActivity(activityType: NSUserActivityTypeBrowsingWeb)
        activity.webpageURL = URL(string: "https://www.home-assistant.io/tag/abc")
        #expect(activity.ndefMessagePayload.records.count == 1)
        #expect(activity.ndefMessagePayload.records[0].typeNameFormat == .empty)
        #expect(CoreNFCTagManager().handle(userActivity: activity) == .handled(tag: "abc", kind: .generic))
        let other = NSUserActivity(activityType: "org.example.edit")
        #expect(CoreNFCTagManager().handle(userActivity: other) == .unhandled)
        activity.webpageURL = URL(string: "https://www.home-assistant.io/nfc/redirect?url=https://example.com/x")
        #expect(CoreNFCTagManager().handle(userActivity: activity) == .open(URL(string: "https://example.com/x")!))
        #expect(CoreNFCTagManager.message(for: "abc").flatMap { CoreNFCTagManager.tagIdentifier(in: $0) } == "abc")
    }

    @Test func notLaunchedForATagIsNilAndABadFileThrows() throws {
        #expect(try NSUserActivity.nfcLaunchActivity(environment: [:]) == nil)
        let (env, dir) = try Self.launchEnvironment(message: [0xD1, 0x01, 0x7F, 0x55], url: nil)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: NFCLaunchPayloadError.self) { try NSUserActivity.nfcLaunchActivity(environment: env) }
    }
}
