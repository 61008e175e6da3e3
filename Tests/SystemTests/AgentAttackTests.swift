import Foundation
import Glibc
import NDEF
import NFCTags
import TagEmulation
import SDBus
import Testing
@testable import CoreNFCLinux
@testable import Pairing

// Ring 3: the agent attacked through what a tag and the desktop control (docs/desktop-agent.md):
// a notification server that restarts and reuses ids, URLs that hide their host, text that draws
// lines of its own, paths that climb out of a claimed prefix, payload files left behind. Same desk
// as AgentSystemTests (pcscd + vpcd, python3-dbusmock's notification server on the private bus).
extension PCSCSystemTests.AgentSystemTests {
    /// §1: after a restart the new server's notification 1 is not ours, whatever its id.
    @Test func aRestartedNotificationServerCannotTriggerAnOldAction() throws {
        let desk = try AgentDesk()
        var server = try NotificationServerMock()
        let app = try desk.recordingApp("ticket-app")
        try desk.desktopEntry("org.example.Tickets.desktop", name: "Example Tickets", exec: "\(app) %u",
                              prefixes: "https://example.com/app/;")
        let agent = try Self.startAgent(desk, server)
        do {
            let tap = try TagOnPCSCD(Self.tag(Self.ticketMessage(), uid: 0x21))
            agent.waitForEvents("tap")
            withExtendedLifetime(tap) {}
        }
        let first = Self.notificationID(try #require(agent.events("tap").first))
        let call = try #require(try Self.notify(server, count: 1).first)
        // Item 6 of issue 27: the server can group and theme the agent's notifications.
        #expect(call.appIcon == "network-wireless")
        #expect(call.hints["desktop-entry"] == .string("nfctap-agent"))

        // The server crashes and another starts: its ids count from 1 again.
        server.stop()
        agent.waitForEvents("server", count: 1)
        server = try NotificationServerMock()
        agent.waitForEvents("server", count: 2)
        // Another application's notification with the same id is clicked.
        try server.invoke(first, "default")
        try server.invoke(first, "open")
        usleep(1_500_000)
        #expect(!desk.ran("ticket-app"), "a click on the new server's notification \(first) launched the old tag's app")
        #expect(agent.events("action").isEmpty)

        // The agent works with the new server.
        do {
            let tap = try TagOnPCSCD(Self.tag(Self.ticketMessage(), uid: 0x22))
            agent.waitForEvents("tap", count: 2)
            withExtendedLifetime(tap) {}
        }
        let second = Self.notificationID(agent.events("tap")[1])
        try server.invoke(second, "default")
        #expect(desk.waitForRun(of: "ticket-app") != nil, "the new server's own notification did not launch the app")
        agent.interrupt()
        #expect(agent.finish().status == 0)
    }

    /// §2 and §3: the host is shown first and never cut; userinfo URLs are not opened; line
    /// separators, bidi controls and zero-width characters never reach the notification.
    @Test func hostileURLsAndTextAreShownAsTheyAre() throws {
        let desk = try AgentDesk()
        let server = try NotificationServerMock()
        try desk.defaultHandlerStub(for: ["https"], busAddress: server.address)
        let app = try desk.recordingApp("app-stub")
        try desk.desktopEntry("org.example.App.desktop", name: "Example App", exec: "\(app) %u", prefixes: "https://example.com/app/;")
        let agent = try Self.startAgent(desk, server)

        let hidden = "https://accounts.example.com." + String(repeating: "secure-login.", count: 12) + "verify-sso@evil.example/login"
        let text = "Hello\u{2028}Open in your web browser\u{2029}\u{202E}moc.elgoog\u{202C} zero\u{200B}width\u{2066}x\u{2069}\u{061C}\u{200F}"
        let climbing = "https://example.com/app/../../admin"
        let tags: [[UInt8]] = [
            try NDEFMessage(records: [.uri(hidden)]).encoded(),
            try NDEFMessage(records: [try .text(text, language: "en")]).encoded(),
            try NDEFMessage(records: [.uri(climbing)]).encoded(),
            try NDEFMessage(records: [.uri("https://example.com/app/\u{202E}gpj.exe")]).encoded(),
        ]
        for (i, ndef) in tags.enumerated() {
            let tap = try TagOnPCSCD(Self.tag(ndef, uid: UInt8(0x30 + i)))
            agent.waitForEvents("tap", count: i + 1)
            withExtendedLifetime(tap) {}
        }
        let calls = try Self.notify(server, count: tags.count)
        try #require(calls.count == tags.count)
        let events = agent.events("tap")

        // The userinfo URL: the real host is the summary, the body names it, nothing opens.
        #expect(calls[0].summary == "evil.example")
        #expect(calls[0].actions.isEmpty)
        #expect(calls[0].body.contains("Not opened: this link goes to evil.example;"), "\(calls[0].body)")
        #expect(events[0]["action"] as? String == "none")

        // Text: one line per line the agent wrote, no invisible or reordering scalars.
        let forbidden: Set<UInt32> = [0x2028, 0x2029, 0x202E, 0x202C, 0x200B, 0x2066, 0x2069, 0x061C, 0x200F]
        for call in calls {
            for s in (call.summary + call.body).unicodeScalars { #expect(!forbidden.contains(s.value), "U+\(String(s.value, radix: 16)) in \(call)") }
        }
        #expect(calls[1].summary == "Hello Open in your web browser moc.elgoog zerowidthx")
        #expect(calls[1].body.split(separator: "\n").count == 2, "\(calls[1].body)")  // the text, then the tag line
        #expect(!calls[1].body.split(separator: "\n").contains("Open in your web browser"))

        // A path climbing out of /app/ is not the app's: the browser gets it.
        #expect(events[2]["action"] as? String == "open")
        #expect(events[2]["application"] == nil)
        #expect(calls[2].summary == "example.com")
        // A bidi override in a URL: refused, not opened.
        #expect(events[3]["action"] as? String == "none")
        #expect(calls[3].actions.isEmpty)

        // Forged clicks on the refused ones open nothing.
        for i in [0, 1, 3] { try server.invoke(Self.notificationID(events[i]), "default") }
        usleep(1_500_000)
        #expect(!desk.ran("browser-stub") && !desk.ran("app-stub"))
        agent.interrupt()
        #expect(agent.finish().status == 0)
    }

    /// §4: payload files go when their 10 minutes are up, not at the next launch.
    @Test func launchPayloadFilesAreSweptOnTime() throws {
        let desk = try AgentDesk()
        let server = try NotificationServerMock()
        let launch = desk.runtime + "/nfctap/launch"
        try FileManager.default.createDirectory(atPath: launch, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(desk.runtime + "/nfctap", 0o700)
        chmod(launch, 0o700)
        func file(_ name: String, age: Double) throws -> String {
            let path = launch + "/" + name
            try Data("x".utf8).write(to: URL(fileURLWithPath: path))
            let when = Date().addingTimeInterval(-age).timeIntervalSince1970
            var times = [timespec(tv_sec: Int(when), tv_nsec: 0), timespec(tv_sec: Int(when), tv_nsec: 0)]
            try #require(utimensat(AT_FDCWD, path, &times, 0) == 0)
            return path
        }
        let expired = try file("tap-0123.ndef", age: 700)
        let soon = try file("tap-4567.json", age: 590)   // expires 10 s from now
        let foreign = try file("notes.txt", age: 7000)   // not the store's: left alone
        let started = Date()
        let agent = try Self.startAgent(desk, server)
        func gone(_ path: String, within seconds: Double) -> Bool {
            let limit = Date().addingTimeInterval(seconds)
            while Date() < limit {
                if !FileManager.default.fileExists(atPath: path) { return true }
                usleep(50_000)
            }
            return false
        }
        #expect(gone(expired, within: 5), "an expired payload file outlived the agent's start")
        if Date().timeIntervalSince(started) < 8 {  // (a slower start swept it at start already)
            #expect(FileManager.default.fileExists(atPath: soon))
        }
        #expect(gone(soon, within: 25), "a payload file outlived its 10 minutes with no launch")
        #expect(FileManager.default.fileExists(atPath: foreign))
        agent.interrupt()
        #expect(agent.finish().status == 0)
    }
}

extension PCSCSystemTests.AgentSystemTests {
    /// Every signal a desktop sends ends the agent cleanly (exit 0, readers released), SIGHUP too.
    @Test func hangupEndsTheAgentCleanly() throws {
        let desk = try AgentDesk()
        let server = try NotificationServerMock()
        let agent = try Self.startAgent(desk, server)
        kill(agent.pid, SIGHUP)
        let result = agent.finish(deadline: 10)
        #expect(result.status == 0, "SIGHUP: status \(result.status); \(result.stderr)")
    }

    /// §1: a server that hands out the same id again replaced the old notification: a click on
    /// that id is about the newest tap, never an older tag's application.
    @Test func aReusedIdMeansTheNewestNotification() throws {
        let desk = try AgentDesk()
        let server = try NotificationServerMock()
        try server.answerEveryNotify(with: 7)
        let old = try desk.recordingApp("old-app"), new = try desk.recordingApp("new-app")
        try desk.desktopEntry("org.example.Old.desktop", name: "Old", exec: "\(old) %u", prefixes: "https://old.example/;")
        try desk.desktopEntry("org.example.New.desktop", name: "New", exec: "\(new) %u", prefixes: "https://new.example/;")
        let agent = try Self.startAgent(desk, server)
        for (i, url) in ["https://old.example/1", "https://new.example/2"].enumerated() {
            let tap = try TagOnPCSCD(Self.tag(NDEFMessage(records: [.uri(url)]).encoded(), uid: UInt8(0x40 + i)))
            agent.waitForEvents("tap", count: i + 1)
            withExtendedLifetime(tap) {}
        }
        #expect(agent.events("tap").map(Self.notificationID) == [7, 7])
        try server.invoke(7, "default")
        #expect(desk.waitForRun(of: "new-app") != nil, "the newest notification's app did not run")
        agent.waitForEvents("action")
        #expect(!desk.ran("old-app"))
        agent.interrupt()
        #expect(agent.finish().status == 0)
    }

    /// A notification server that takes a tap's `Notify` and never answers: SIGTERM still ends the
    /// agent at once (it gives the call up), not after the call's 5 s timeout.
    @Test func aHungNotificationServerDoesNotDelayTheStop() throws {
        let desk = try AgentDesk()
        let server = try NotificationServerMock()
        let agent = try Self.startAgent(desk, server)
        try server.hang(seconds: 30)
        let tap = try TagOnPCSCD(Self.tag(NDEFMessage(records: [.uri("https://nfctap.dev/hang")]).encoded(), uid: 0x50))
        // The agent is in Notify once the server has the call (it is blocked from then on).
        try #require(Self.waitUntilBusy(server), "the agent never called Notify")
        let stop = ContinuousClock.now
        kill(agent.pid, SIGTERM)
        let result = agent.finish(deadline: 10)
        let took = ContinuousClock.now - stop
        #expect(result.status == 0)
        #expect(took < .milliseconds(2500), "SIGTERM took \(took) while Notify hung (the call's timeout is 5 s)")
        print("agent timing: SIGTERM during a hung Notify → exit in \(took)")
        withExtendedLifetime(tap) {}
    }

    /// The same while the agent starts (`GetCapabilities` hangs): the signal is trapped first.
    @Test func aSignalWhileStartingIsACleanStop() throws {
        let desk = try AgentDesk()
        let server = try NotificationServerMock()
        try server.hang(capabilities: true, seconds: 30)
        let agent = try CLIProcess(["agent", "--reader", "PCD 00 01"], environment: desk.environment(busAddress: server.address))
        try #require(Self.waitUntilBusy(server), "the agent never asked for the capabilities")
        kill(agent.pid, SIGTERM)
        let result = agent.finish(deadline: 10)
        #expect(result.status == 0, "SIGTERM while starting: status \(result.status); \(result.stderr)")
        #expect(agent.events("reading").isEmpty)
    }

    /// Waits (bounded) until the server is blocked in a call of the agent's.
    static func waitUntilBusy(_ server: NotificationServerMock) -> Bool {
        let limit = Date().addingTimeInterval(20)
        while Date() < limit {
            if serverIsBusy(server) { return true }
            usleep(100_000)
        }
        return false
    }

    /// True while the server does not answer a call within 300 ms (dbusmock: blocked in Notify).
    static func serverIsBusy(_ server: NotificationServerMock) -> Bool {
        do {
            _ = try server.control.call(destination: NotificationServerMock.name, path: NotificationServerMock.path,
                                        interface: "org.freedesktop.DBus.Mock", member: "GetCalls", timeout: .milliseconds(300))
            return false
        } catch let error as DBusError {
            return error.isTimeout
        } catch {
            return false
        }
    }
}
