import Foundation
import Glibc
import NDEF
import NFCTags
import TagEmulation
import SDBus
import Testing
@testable import CoreNFCLinux
@testable import Pairing

// Ring 3: `nfctap agent` as a desktop runs it — the test pcscd + vpcd for tags, the private bus as
// the session bus with python3-dbusmock's notification server, real xdg-utils with desktop
// entries in a scratch XDG_DATA_HOME. Nested in the serialized PC/SC suite (it shares the readers).
extension PCSCSystemTests {
    @Suite("nfctap agent: background reading", .enabled(if: SystemEnvironment.available("dbus")))
    struct AgentSystemTests {
        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        static let ticketURL = "https://example.com/app/ticket/7"
        static let ticketJSON = #"{"event":"Linux Desk Day","seat":"B12"}"#

        /// URI record, then a JSON record: the message of the iOS article's tags.
        static func ticketMessage() throws -> [UInt8] {
            try NDEFMessage(records: [.uri(ticketURL), .mime("application/json", Array(ticketJSON.utf8))]).encoded()
        }

        static func tag(_ ndef: [UInt8], uid: UInt8) throws -> VirtualTag {
            try VirtualType2Tag(product: .ntag215, uid: [0x04, 0xA6, 0xE2, 0x00, 0x00, 0x00, uid], ndef: ndef)
        }

        /// Starts the agent on the desk; returns once it reads.
        static func startAgent(_ desk: AgentDesk, _ server: NotificationServerMock, _ args: [String] = [],
                               environment extra: [String: String] = [:]) throws -> CLIProcess {
            var env = desk.environment(busAddress: server.address)
            for (k, v) in extra { env[k] = v }
            let agent = try CLIProcess(["agent", "--reader", "PCD 00 01"] + args, environment: env)
            agent.waitForEvents("reading")
            return agent
        }

        static func notify(_ server: NotificationServerMock, count: Int) throws -> [NotifyCall] {
            let limit = Date().addingTimeInterval(20)
            var calls: [NotifyCall] = []
            while Date() < limit {
                calls = try server.notifyCalls().compactMap(NotifyCall.init)
                if calls.count >= count { break }
                usleep(50_000)
            }
            return calls
        }

        static func notificationID(_ event: [String: Any]) -> UInt32 {
            UInt32((event["notification"] as? Int) ?? 0)
        }

        // MARK: Claimed URL → the app, with the message

        @Test func claimedURLLaunchesTheAppWithTheMessage() throws {
            let desk = try AgentDesk()
            let server = try NotificationServerMock()
            let app = try desk.recordingApp("ticket-app")
            let entry = try desk.desktopEntry("org.example.Tickets.desktop", name: "Example Tickets", exec: "\(app) %u",
                                              prefixes: "https://example.com/app/;")
            // Another app with a shorter prefix: the longer claim must win.
            try desk.desktopEntry("org.example.Site.desktop", name: "Site", exec: "\(try desk.recordingApp("site-app")) %u",
                                  prefixes: "https://example.com/;")
            // desktop-file-utils accepts the entry (X- keys are the spec's extension mechanism).
            let (valid, problems) = try desk.run("/usr/bin/desktop-file-validate", [entry], busAddress: server.address)
            #expect(valid == 0, "\(problems)")

            let agent = try Self.startAgent(desk, server)
            let message = try Self.ticketMessage()
            let tap = try TagOnPCSCD(Self.tag(message, uid: 0x01))
            let event = try #require(agent.waitForEvents("tap").first)
            #expect(event["application"] as? String == "org.example.Tickets.desktop")
            let call = try #require(try Self.notify(server, count: 1).first)
            #expect(call.appName == "nfctap")
            #expect(call.replacesID == 0)
            #expect(call.summary == "example.com")  // the host first (docs/desktop-agent.md §2)
            #expect(call.body == "\(Self.ticketURL)\nOpen in Example Tickets\nTag 04:A6:E2:00:00:00:01 on \(TestPCSCD.reader1)")
            #expect(call.actions == ["default", "Open", "open", "Open"])
            #expect(call.timeout == -1)
            withExtendedLifetime(tap) {}

            try server.invoke(Self.notificationID(event), "default")
            let ran = try #require(desk.waitForRun(of: "ticket-app"), "the claiming app did not run; stderr: \(agent.finish().stderr)")
            #expect(try String(contentsOfFile: ran + "/argv", encoding: .utf8) == Self.ticketURL + "\n")
            #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: ran + "/message.ndef"))) == message)
            #expect(try String(contentsOfFile: ran + "/mode", encoding: .utf8) == "600\n")
            #expect(try String(contentsOfFile: ran + "/ndef-path", encoding: .utf8).hasPrefix(desk.runtime + "/nfctap/launch/"))
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ran + "/message.json"))) as? [String: Any]
            let records = json?["records"] as? [[String: Any]]
            #expect(records?.first?["uri"] as? String == Self.ticketURL)
            #expect(records?.count == 2)
            #expect(!desk.ran("site-app"))
            agent.waitForEvents("action")
            agent.interrupt()
            #expect(agent.finish().status == 0)
        }

        @Test func theExampleAppReceivesItsLaunchPayload() throws {
            let desk = try AgentDesk()
            let server = try NotificationServerMock()
            let example = URL(fileURLWithPath: SystemEnvironment.cliPath).deletingLastPathComponent()
                .appendingPathComponent("BackgroundTagReadingExample").path
            try #require(FileManager.default.isExecutableFile(atPath: example), "build the examples first")
            // The shipped entry, with Exec pointing at the built program.
            var shipped = try String(contentsOf: SystemEnvironment.packageRoot
                .appendingPathComponent("Examples/BackgroundTagReading/nfctap-example-tickets.desktop"), encoding: .utf8)
            shipped = shipped.replacingOccurrences(of: "Exec=BackgroundTagReadingExample", with: "Exec=\(example)")
            let entry = desk.dataHome + "/applications/nfctap-example-tickets.desktop"
            try shipped.write(toFile: entry, atomically: true, encoding: .utf8)
            let (valid, problems) = try desk.run("/usr/bin/desktop-file-validate", [entry], busAddress: server.address)
            #expect(valid == 0 && problems.isEmpty, "\(problems)")

            let agent = try Self.startAgent(desk, server)
            let tap = try TagOnPCSCD(Self.tag(Self.ticketMessage(), uid: 0x02))
            let event = try #require(agent.waitForEvents("tap").first)
            #expect(event["application"] as? String == "nfctap-example-tickets.desktop")
            withExtendedLifetime(tap) {}
            try server.invoke(Self.notificationID(event), "open")
            agent.waitForStderr("seat: B12")
            agent.interrupt()
            let result = agent.finish()
            #expect(result.stderr.contains("url: \(Self.ticketURL)\nevent: Linux Desk Day\nseat: B12"), "\(result.stderr)")
        }

        // MARK: No claim → the default handler (xdg-open)

        @Test func unclaimedWebLinkOpensWithTheDefaultHandler() throws {
            let desk = try AgentDesk()
            let server = try NotificationServerMock()
            let browser = try desk.recordingApp("browser-stub")
            try desk.desktopEntry("browser-stub.desktop", name: "Browser Stub", exec: "\(browser) %u", prefixes: nil,
                                  extra: "MimeType=x-scheme-handler/https;\n")
            let (status, out) = try desk.run("/usr/bin/xdg-mime", ["default", "browser-stub.desktop", "x-scheme-handler/https"],
                                             busAddress: server.address)
            try #require(status == 0, "xdg-mime default failed: \(out)")

            let agent = try Self.startAgent(desk, server)
            let url = "https://nfctap.dev/w?a=1&b=<2>"
            let tap = try TagOnPCSCD(Self.tag(NDEFMessage(records: [.uri(url)]).encoded(), uid: 0x03))
            let event = try #require(agent.waitForEvents("tap").first)
            #expect(event["action"] as? String == "open")
            let call = try #require(try Self.notify(server, count: 1).first)
            #expect(call.summary == "nfctap.dev")
            #expect(call.body.hasPrefix("https://nfctap.dev/w?a=1&amp;b=&lt;2&gt;\nOpen in your web browser\n"), "\(call.body)")
            #expect(call.actions == ["default", "Open", "open", "Open"])
            withExtendedLifetime(tap) {}
            try server.invoke(Self.notificationID(event), "open")
            let ran = try #require(desk.waitForRun(of: "browser-stub"), "xdg-open did not run the default handler")
            #expect(try String(contentsOfFile: ran + "/argv", encoding: .utf8) == url + "\n")
            #expect(try String(contentsOfFile: ran + "/ndef-path", encoding: .utf8).isEmpty)  // no payload for the browser
            agent.interrupt()
            #expect(agent.finish().status == 0)
        }

        @Test func sandboxedAgentOpensThroughTheOpenURIPortal() throws {
            let desk = try AgentDesk()
            let server = try NotificationServerMock()
            let portal = try OpenURIPortalMock(address: server.address)
            let browser = try desk.recordingApp("browser-stub")
            try desk.desktopEntry("browser-stub.desktop", name: "Browser Stub", exec: "\(browser) %u", prefixes: nil)
            _ = try desk.run("/usr/bin/xdg-mime", ["default", "browser-stub.desktop", "x-scheme-handler/https"], busAddress: server.address)
            let agent = try Self.startAgent(desk, server, environment: ["FLATPAK_ID": "org.example.Sandboxed"])
            let url = "https://nfctap.dev/portal"
            let tap = try TagOnPCSCD(Self.tag(NDEFMessage(records: [.uri(url)]).encoded(), uid: 0x0A))
            let event = try #require(agent.waitForEvents("tap").first)
            withExtendedLifetime(tap) {}
            try server.invoke(Self.notificationID(event), "default")
            agent.waitForEvents("action")
            let calls = try portal.openURICalls()
            #expect(calls.count == 1)
            #expect(calls.first?.count == 3 && calls.first?[0] == .string("") && calls.first?[1] == .string(url))
            #expect(!desk.ran("browser-stub"))  // not xdg-open inside the sandbox
            agent.interrupt()
            #expect(agent.finish().status == 0)
        }

        // MARK: Hostile and plain tags

        @Test func hostileTagsAreNotOpenedAndTheirTextIsEscaped() throws {
            let desk = try AgentDesk()
            let server = try NotificationServerMock()
            try desk.defaultHandlerStub(for: ["file", "https"], busAddress: server.address)
            let agent = try Self.startAgent(desk, server)

            // A file: URL no app claims: shown, never opened.
            do {
                let tap = try TagOnPCSCD(Self.tag(NDEFMessage(records: [.uri("file:///etc/passwd")]).encoded(), uid: 0x04))
                agent.waitForEvents("tap", count: 1)
                withExtendedLifetime(tap) {}
            }
            // Markup in a text record: escaped in the body, plain in the summary.
            do {
                let text = try NDEFRecord.text("<b>Tom & Jerry</b> <a href='x'>", language: "en")
                let tap = try TagOnPCSCD(Self.tag(NDEFMessage(records: [text]).encoded(), uid: 0x05))
                agent.waitForEvents("tap", count: 2)
                withExtendedLifetime(tap) {}
            }
            // An empty tag.
            do {
                let tap = try TagOnPCSCD(VirtualType2Tag.blankNTAG215(uid: [0x04, 0xA6, 0xE2, 0, 0, 0, 0x06]))
                agent.waitForEvents("tap", count: 3)
                withExtendedLifetime(tap) {}
            }
            let calls = try Self.notify(server, count: 3)
            try #require(calls.count == 3)
            #expect(calls[0].summary == "file:///etc/passwd")
            #expect(calls[0].actions == [])
            #expect(calls[0].body.hasPrefix("No application opens file links\n"))
            #expect(calls[1].summary == "<b>Tom & Jerry</b> <a href='x'>")
            #expect(calls[1].body.hasPrefix("&lt;b&gt;Tom &amp; Jerry&lt;/b&gt; &lt;a href='x'&gt;\n"), "\(calls[1].body)")
            #expect(!calls[1].body.contains("<"))
            #expect(calls[1].actions == [])
            #expect(calls[2].summary == "empty tag")
            #expect(calls[2].actions == [])
            // Even a forged click does not open the file: URL.
            let taps = agent.events("tap")
            try server.invoke(Self.notificationID(taps[0]), "default")
            try server.invoke(Self.notificationID(taps[0]), "open")
            usleep(1_500_000)
            #expect(!desk.ran("browser-stub"))
            #expect(agent.events("action").isEmpty)
            agent.interrupt()
            #expect(agent.finish().status == 0)
        }

        // MARK: Zebra printer → the pairing handler

        @Test func zebraTagRunsThePairingHandler() throws {
            let desk = try AgentDesk()
            let server = try NotificationServerMock()
            let recorder = try ExecRecorder()
            let agent = try Self.startAgent(desk, server, ["--pair-with", "exec:\(recorder.program)"])
            let zebra = "http://www.zebra.com/apps/r/nfc?mE=000000000000&mW=&mB=cc78ab3ebae0&c=ZQ320-A0E02T0-00&s=XXZFJ170700336&v=0"
            let tap = try TagOnPCSCD(Self.tag(NDEFMessage(records: [.uri(zebra)]).encoded(), uid: 0x07))
            let event = try #require(agent.waitForEvents("tap").first)
            #expect(event["action"] as? String == "pair")
            let call = try #require(try Self.notify(server, count: 1).first)
            #expect(call.summary == "Zebra printer XXZFJ170700336")
            #expect(call.actions == ["default", "Pair", "pair", "Pair"])
            withExtendedLifetime(tap) {}
            try server.invoke(Self.notificationID(event), "pair")
            agent.waitForEvents("paired")
            let record = try recorder.read()
            #expect(record.env["NFCTAP_SERIAL"] == "XXZFJ170700336")
            #expect(record.env["NFCTAP_BT_MAC"] == "CC:78:AB:3E:BA:E0")
            // Closed by the server (NotificationClosed): its action is forgotten.
            _ = try server.control.call(destination: NotificationServerMock.name, path: NotificationServerMock.path,
                                    interface: NotificationServerMock.name, member: "CloseNotification",
                                    arguments: [.uint32(Self.notificationID(event))])
            let closed = try #require(agent.waitForEvents("closed").first)
            #expect(Self.notificationID(closed) == Self.notificationID(event))
            try server.invoke(Self.notificationID(event), "pair")
            usleep(1_000_000)
            #expect(agent.events("action").count == 1)
            agent.interrupt()
            #expect(agent.finish().status == 0)
        }

        // MARK: Coexistence with sessions in other processes

        @Test func agentYieldsToAScanInAnotherProcessAndResumesAfter() throws {
            let desk = try AgentDesk()
            let server = try NotificationServerMock()
            let agent = try Self.startAgent(desk, server)

            // A scan in another process: the agent lets go of the readers while it runs.
            let scanStarted = Date()
            let scan = try CLIProcess(["scan", "--json", "--timeout", "20", "--reader", "PCD 00 01"],
                                      environment: desk.environment(busAddress: server.address))
            agent.waitForEvents("paused")
            let pausedAfter = Date().timeIntervalSince(scanStarted)
            scan.waitForStderr("Hold a tag near")
            do {
                let scanTag = try TagOnPCSCD(Self.tag(NDEFMessage(records: [.uri("https://nfctap.dev/scan")]).encoded(), uid: 0x08))
                let scanned = scan.finish()
                #expect(scanned.status == 0, "\(scanned.stderr)")
                #expect(try ScanJSON.decode(scanned.stdout).records?.first?.uri == "https://nfctap.dev/scan")
                // The agent resumes; the scan's tag, still on the reader, is not a new tap.
                agent.waitForEvents("resumed")
                let skipped = agent.waitForEvents("skipped").first
                #expect(skipped?["uid"] as? String == "04A6E200000008")
                usleep(500_000)
                #expect(agent.events("tap").isEmpty)
                #expect(try server.notifyCalls().isEmpty)
                withExtendedLifetime(scanTag) {}
            }

            // Reading again after the scan ended.
            let tapped = Date()
            let tap = try TagOnPCSCD(Self.tag(NDEFMessage(records: [.uri("https://nfctap.dev/after")]).encoded(), uid: 0x09))
            let event = try #require(agent.waitForEvents("tap").first)
            print("agent timing: paused \(Int(pausedAfter * 1000)) ms after the scan process started; "
                  + "tag inserted → notification posted in \(Int(Date().timeIntervalSince(tapped) * 1000)) ms")
            #expect(event["summary"] as? String == "nfctap.dev", "\(event)")
            withExtendedLifetime(tap) {}
            agent.interrupt()
            #expect(agent.finish().status == 0)
        }

        @Test func agentYieldsToAnAppUsingTheLibrary() throws {
            let desk = try AgentDesk()
            let server = try NotificationServerMock()
            let agent = try Self.startAgent(desk, server)
            // An iOS-style program (CoreNFCLinux's NFCNDEFReaderSession) with a 2 s time limit.
            let app = try ExampleProcess("InventoryExample", ["--time-limit", "2", "--reader", "PCD 00 01"],
                                         environment: desk.environment(busAddress: server.address))
            agent.waitForEvents("paused")
            #expect(app.waitUntilActive())
            _ = app.finish()
            agent.waitForEvents("resumed")
            let tap = try TagOnPCSCD(Self.tag(NDEFMessage(records: [.uri("https://nfctap.dev/library")]).encoded(), uid: 0x0B))
            let event = try #require(agent.waitForEvents("tap").first)
            #expect(event["summary"] as? String == "nfctap.dev")
            withExtendedLifetime(tap) {}
            agent.interrupt()
            #expect(agent.finish().status == 0)
        }

        /// The agent notices a session's hold through inotify, not by polling: a session's
        /// `holdForSession` returns once the agent let go of the readers, well within 1 s (with only
        /// the 5 s safety re-check it would wait the whole 3 s hand-over time). While idle, the
        /// agent's loop thread sleeps until the safety re-check (polling woke it 5 times a second).
        @Test func agentYieldsAtOnceToASessionHoldAndSleepsWhileIdle() throws {
            let desk = try AgentDesk()
            let server = try NotificationServerMock()
            let agent = try Self.startAgent(desk, server)
            let environment = desk.environment(busAddress: server.address)

            usleep(500_000)
            let idleStart = try Self.loopWakeups(agent.pid), processStart = Self.threadWakeups(agent.pid)
            usleep(6_000_000)
            let idleWakeups = try Self.loopWakeups(agent.pid) - idleStart
            let processWakeups = Self.wakeups(from: processStart, to: Self.threadWakeups(agent.pid))
            #expect(idleWakeups <= 6, "the agent's loop woke \(idleWakeups) times in 6 s idle (polling: 30)")

            let start = ContinuousClock.now
            let hold = try #require(NFCBackgroundReading.holdForSession(environment: environment))
            let yielded = ContinuousClock.now - start
            agent.waitForEvents("paused", seconds: 5)
            #expect(yielded < .seconds(1), "the session waited \(yielded) for the agent to let go")

            let released = ContinuousClock.now
            hold.release()
            agent.waitForEvents("resumed", seconds: 10)
            let resumed = ContinuousClock.now - released
            #expect(resumed < .seconds(2), "the agent resumed \(resumed) after the session ended")
            print("agent timing: yielded to a session hold in \(yielded.milliseconds) ms, resumed "
                  + "\(resumed.milliseconds) ms after its release (± 50 ms sampling); loop thread woke \(idleWakeups)× in 6 s idle "
                  + "(all its threads: \(processWakeups)×, the reader session's included)")
            agent.interrupt()
            #expect(agent.finish().status == 0)
        }

        /// The agent's single wait (`DBusConnection.process(until:timeout:orReadable:)`): it ends
        /// as soon as another descriptor is readable, and otherwise sleeps its whole timeout.
        @Test func theBusWaitEndsOnAnotherDescriptor() throws {
            let address = try #require(BlueZMock.busAddress)
            let bus = try DBusConnection(address: address)
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            defer { ends.forEach { close($0) } }
            let quiet = ContinuousClock.now
            #expect(try !bus.process(until: { false }, timeout: .milliseconds(300), orReadable: [ends[0]]))
            #expect(ContinuousClock.now - quiet >= .milliseconds(290))
            let writer = ends[1]
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { var b: UInt8 = 1; _ = write(writer, &b, 1) }
            let start = ContinuousClock.now
            #expect(try bus.process(until: { false }, timeout: .seconds(10), orReadable: [ends[0]]))
            #expect(ContinuousClock.now - start < .seconds(2))
        }

        /// Voluntary context switches of the agent's loop (main) thread: one per wait that ended.
        static func loopWakeups(_ pid: Int32, thread: String? = nil) throws -> Int {
            let status = try String(contentsOfFile: "/proc/\(pid)/task/\(thread ?? "\(pid)")/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") })
            return try #require(Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)))
        }

        /// Per thread of the process (for the log: the reader session's threads too).
        static func threadWakeups(_ pid: Int32) -> [String: Int] {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            return Dictionary(uniqueKeysWithValues: tasks.compactMap { tid in (try? loopWakeups(pid, thread: tid)).map { (tid, $0) } })
        }

        /// Wakeups between two `threadWakeups` snapshots, over the threads alive in both.
        static func wakeups(from before: [String: Int], to after: [String: Int]) -> Int {
            after.reduce(0) { sum, entry in sum + (before[entry.key].map { entry.value - $0 } ?? 0) }
        }

        // MARK: The unit

        @Test(.enabled(if: PackagingTests.haveSystemdAnalyze || SystemEnvironment.environment["NFCTAP_REQUIRE_SYSTEM"] == "1"))
        func agentUnitVerifiesAsAUserUnit() throws {
            let desk = try AgentDesk()
            let text = try PackagingTests.read("systemd/nfctap-agent.service")
            #expect(text.contains("ExecStart=/usr/bin/nfctap agent"))  // the .deb's path
            #expect(text.contains("WantedBy=default.target"))
            // The man page it names is the .deb's (generated from the commands), not on this machine: --man=no.
            #expect(text.contains("Documentation=man:nfctap-agent(1)"))
            let unit = desk.root.appendingPathComponent("nfctap-agent.service")
            try text.replacingOccurrences(of: "/usr/bin/nfctap", with: SystemEnvironment.cliPath)
                .write(to: unit, atomically: true, encoding: .utf8)
            for (content, clean) in [(text, true), (text.replacingOccurrences(of: "Restart=", with: "Restrt="), false)] {
                try content.replacingOccurrences(of: "/usr/bin/nfctap", with: SystemEnvironment.cliPath)
                    .write(to: unit, atomically: true, encoding: .utf8)
                let (status, output) = try desk.run("/usr/bin/systemd-analyze", ["verify", "--user", "--man=no", unit.path], busAddress: "")
                if clean {
                    #expect(status == 0 && output.isEmpty, "systemd-analyze verify --user printed: \(output)")
                } else {
                    #expect(output.contains("Restrt"))
                }
            }
        }
    }
}

private extension Duration {
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
