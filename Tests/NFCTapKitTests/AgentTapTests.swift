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
        #expect(tap.bodyText == "Open in Example\nTag 04:01:02 on Desk <Reader>")
    }

    @Test func customSchemesOpenOnlyThroughAClaim() throws {
        let claimed = AgentTap(report: try Self.report([.uri("myapp://open/42")]), claims: Self.claims)
        #expect(claimed.actions == ["default", "Open", "open", "Open"])
        let unclaimed = AgentTap(report: try Self.report([.uri("otherapp://open/42")]), claims: Self.claims)
        #expect(unclaimed.action == nil && unclaimed.actions.isEmpty)
        #expect(unclaimed.bodyText.hasPrefix("No application opens otherapp links"))
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
        #expect(text.summary == "line 1 line 2 ")
    }
}
