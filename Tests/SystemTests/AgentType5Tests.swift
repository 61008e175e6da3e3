import Foundation
import NDEF
import NFCTags
import TagEmulation
import Testing

// Ring 3, issue 28 item 5: `nfctap agent` with ISO 15693 (Type 5) tags, on the same desk as
// `AgentSystemTests` (pcscd + vpcd, the private bus with the notification mock, xdg-utils).
extension PCSCSystemTests {
    @Suite("nfctap agent: ISO 15693 (Type 5) tags", .enabled(if: SystemEnvironment.available("dbus")))
    struct AgentType5Tests {
        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        @Test("a Type 5 tag's URI is dispatched as a Type 2 one's; a Type 5 tag without NDEF is said so, and the agent reads on")
        func type5TagsOnTheAgent() throws {
            let desk = try AgentDesk()
            let server = try NotificationServerMock()
            try desk.defaultHandlerStub(for: ["https"], busAddress: server.address)
            let agent = try AgentSystemTests.startAgent(desk, server)
            var stopped = false
            // A failed expectation must not leave the agent reading beside the next suites.
            defer { if !stopped { agent.interrupt(); _ = agent.finish() } }

            // An ICODE SLIX2 with a URI record behind an OMNIKEY-like reader (transparent exchange).
            let url = "https://nfctap.dev/type5"
            let slix2 = VirtualISO15693Tag.formatted(.icodeSLIX2, uid: VirtualISO15693Tag.exampleUID(.icodeSLIX2, serial: 0x61),
                                                     message: try NDEFMessage(records: [.uri(url)]).encoded())
            do {
                let tap = try TagOnPCSCD(slix2, profile: .omnikey)
                let event = try #require(agent.waitForEvents("tap").first)
                #expect(event["action"] as? String == "open")
                let call = try #require(try AgentSystemTests.notify(server, count: 1).first)
                #expect(call.summary == "nfctap.dev")
                #expect(call.body == "\(url)\nOpen in your web browser\nTag E0:04:01:08:12:34:56:61 on \(TestPCSCD.reader1)", "\(call.body)")
                #expect(call.actions == ["default", "Open", "open", "Open"])
                withExtendedLifetime(tap) {}
                try server.invoke(AgentSystemTests.notificationID(event), "open")
                let ran = try #require(desk.waitForRun(of: "browser-stub"), "xdg-open did not run the default handler")
                #expect(try String(contentsOfFile: ran + "/argv", encoding: .utf8) == url + "\n")
            }
            // The Flipper SLIX2 library-label dump (not NDEF formatted) behind a reader refusing
            // FF C2 (READ BINARY only): a clear notification, no action, and the agent goes on.
            do {
                let tap = try TagOnPCSCD(VirtualISO15693Tag.flipperSLIX2Dump())
                agent.waitForEvents("tap", count: 2)
                withExtendedLifetime(tap) {}
            }
            let calls = try AgentSystemTests.notify(server, count: 2)
            try #require(calls.count == 2)
            #expect(calls[1].summary == "NFC tag without NDEF")
            #expect(calls[1].body == "Tag E0:04:01:08:49:D0:DC:81 on \(TestPCSCD.reader1)", "\(calls[1].body)")
            #expect(calls[1].actions == [])
            // Still reading: a third tap is dispatched.
            do {
                let again = VirtualISO15693Tag.formatted(.st25dv04k, uid: VirtualISO15693Tag.exampleUID(.st25dv04k, serial: 0x62),
                                                         message: try NDEFMessage(records: [.uri(url + "/st")]).encoded())
                let tap = try TagOnPCSCD(again, profile: .identiv)
                let third = agent.waitForEvents("tap", count: 3)
                #expect(third.count == 3 && third.last?["action"] as? String == "open")
                withExtendedLifetime(tap) {}
            }
            agent.interrupt()
            stopped = true
            let end = agent.finish()
            #expect(end.status == 0, "\(end.stderr)")
            #expect(!end.stderr.contains("Fatal error"))
        }
    }
}
