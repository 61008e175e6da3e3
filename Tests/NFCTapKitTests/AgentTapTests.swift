import CoreNFCLinux
import DesktopIntegration
import NDEF
import ReaderCore
import Testing
@testable import NFCTapKit

/// What the agent makes of a tag (summary, body, action) without a bus: no daemons needed.
@Suite struct AgentTapTests {
    static let reader = ReaderInfo(name: "Desk <Reader>", backend: .virtual)
    static let tag = DetectedTag(reader: reader, technology: .type2, uid: [0x04, 0x01, 0x02], atr: [], presence: 1)

    static func report(_ records: [NDEFRecord]) throws -> NFCTagReport {
        NFCTagReport(tag: tag, ndefBytes: try NDEFMessage(records: records).encoded())
    }

    static let claimingApp = DesktopApplication(id: "org.example.App.desktop", path: "/x/org.example.App.desktop",
                                                name: "Example", icon: nil, exec: try! ExecLine("app %u"),
                                                urlPrefixes: ["myapp://open/", "https://example.com/app/"], noDisplay: false)

    static func claims(_ url: String) -> URLClaim? {
        URLPrefix.longestMatch(claimingApp.urlPrefixes, url).map { URLClaim(application: claimingApp, prefixLength: $0) }
    }

    @Test func firstURLOfAnyKindIsTheTapsURL() throws {
        let poster = try SmartPoster(uri: "https://example.com/app/poster").record()
        let tap = AgentTap(report: try Self.report([try .text("first", language: "en"), poster, .uri("https://later.example/")]),
                           claims: Self.claims)
        #expect(tap.content == .url("https://example.com/app/poster"))
        #expect(tap.action == .launch(Self.claims("https://example.com/app/poster")!, url: "https://example.com/app/poster"))
        #expect(tap.summary == "example.com")
        #expect(tap.bodyLines == ["https://example.com/app/poster", "Open in Example", "Tag 04:01:02 on Desk <Reader>"])
    }

    @Test func customSchemesOpenOnlyThroughAClaim() throws {
        let claimed = AgentTap(report: try Self.report([.uri("myapp://open/42")]), claims: Self.claims)
        #expect(claimed.actions == ["default", "Open", "open", "Open"])
        let unclaimed = AgentTap(report: try Self.report([.uri("otherapp://open/42")]), claims: Self.claims)
        #expect(unclaimed.action == nil && unclaimed.actions.isEmpty)
        #expect(unclaimed.bodyLines.contains("No application opens otherapp links"))
        // A claimed prefix does not make an unsafe URL (spaces, controls) launchable.
        let unsafe = AgentTap(report: try Self.report([.uri("myapp://open/a b")]), claims: Self.claims)
        #expect(unsafe.action == nil)
    }

    @Test func zebraLookalikeIsAPlainLink() throws {
        let real = AgentTap(report: try Self.report([.uri("http://www.zebra.com/apps/r/nfc?mB=cc78ab3ebae0&s=XXZFJ170700336&v=0")]),
                            claims: { _ in nil })
        #expect(real.summary == "Zebra printer XXZFJ170700336")
        #expect(real.actions == ["default", "Pair", "pair", "Pair"])
        let fake = AgentTap(report: try Self.report([.uri("https://www.zebra.com.evil.example/apps/r/nfc?mB=cc78ab3ebae0&s=X")]),
                            claims: { _ in nil })
        #expect(fake.action == .openWithDefault("https://www.zebra.com.evil.example/apps/r/nfc?mB=cc78ab3ebae0&s=X"))
    }

    @Test func tagsWithoutAURLAreShownOnly() throws {
        let media = AgentTap(report: try Self.report([.mime("application/json", Array("{}".utf8))]), claims: Self.claims)
        #expect(media.summary == "NFC tag: application/json" && media.actions.isEmpty)
        let empty = AgentTap(report: NFCTagReport(tag: Self.tag, ndefBytes: []), claims: Self.claims)
        #expect(empty.summary == "empty tag")
        let noNDEF = AgentTap(report: NFCTagReport(tag: Self.tag, error: NFCReaderError(.readerErrorUnsupportedFeature)),
                              claims: Self.claims)
        #expect(noNDEF.summary == "NFC tag without NDEF")
        let torn = AgentTap(report: NFCTagReport(tag: Self.tag, error: NFCReaderError(.readerTransceiveErrorTagConnectionLost)),
                            claims: Self.claims)
        #expect(torn.summary == "tag not read" && torn.actions.isEmpty)
        let malformed = AgentTap(report: NFCTagReport(tag: Self.tag, ndefBytes: [0xD1, 0x01, 0x40]), claims: Self.claims)
        #expect(malformed.summary == "unreadable NDEF message")
        let text = AgentTap(report: try Self.report([try .text("line 1\nline 2\u{202E}", language: "en")]), claims: Self.claims)
        #expect(text.summary == "line 1 line 2")
    }

    /// docs/desktop-agent.md §2: the host first, userinfo refused, climbing paths unclaimed.
    @Test func theRealHostIsTheSummaryAndUserinfoIsNotOpened() throws {
        let hidden = "https://accounts.example.com." + String(repeating: "secure-login.", count: 20) + "sso@evil.example/"
        let tap = AgentTap(report: try Self.report([.uri(hidden)]), claims: Self.claims)
        #expect(tap.summary == "evil.example")
        #expect(tap.action == nil && tap.actions.isEmpty)
        #expect(tap.bodyLines.contains { $0.hasPrefix("Not opened: this link goes to evil.example;") })
        // A host longer than the summary loses its start, never the registrable domain at its end.
        let longHost = String(repeating: "accounts-example-com.", count: 10) + "evil.example"
        let long = AgentTap(report: try Self.report([.uri("https://\(longHost)/")]), claims: { _ in nil })
        #expect(long.summary.hasPrefix("…") && long.summary.hasSuffix(".evil.example") && long.summary.count == NotificationText.maximumSummary)
        let climbing = AgentTap(report: try Self.report([.uri("https://example.com/app/../../admin")]), claims: Self.claims)
        #expect(climbing.action == .openWithDefault("https://example.com/app/../../admin"))
        let backslash = AgentTap(report: try Self.report([.uri("https://example.com\\@evil.example/app/")]), claims: Self.claims)
        #expect(backslash.action == nil)
        #expect(backslash.bodyLines.contains { $0.hasPrefix("Not opened: not a well-formed link") })
        let port = AgentTap(report: try Self.report([.uri("https://example.com:8443/x")]), claims: Self.claims)
        #expect(port.summary == "example.com:8443")
    }

    /// docs/desktop-agent.md §3: tag text can add no line and hide no character, in any field.
    @Test func tagTextCannotDrawALineOfItsOwn() throws {
        let fake = "Hi\u{2028}Open in your web browser\u{202E}\u{200B}"
        let text = AgentTap(report: try Self.report([try .text(fake, language: "en")]), claims: Self.claims)
        let body = NotificationText.body(lines: text.bodyLines, markup: true)
        #expect(body == "Hi Open in your web browser\nTag 04:01:02 on Desk &lt;Reader&gt;")
        #expect(text.summary == "Hi Open in your web browser")
        // A reader name is shown through the same sanitiser.
        let reader = ReaderInfo(name: "Desk\nOpen in your web browser\u{202E}", backend: .virtual)
        let tag = DetectedTag(reader: reader, technology: .type2, uid: [0x04], atr: [], presence: 1)
        let named = AgentTap(report: NFCTagReport(tag: tag, ndefBytes: []), claims: Self.claims)
        #expect(NotificationText.body(lines: named.bodyLines, markup: false) == "Tag 04 on Desk Open in your web browser")
    }
}
