import SafeText
import CoreNFCLinux
import DesktopIntegration
import Dispatch
import Foundation
import NFCReaders
import ReaderCore
import Pairing
import RecordOutput
import SDBus

/// `nfctap agent`'s loop, on one thread (the D-Bus connection's): it keeps a reader session
/// running except while another process runs an nfctap session (NFCBackgroundReading), posts a
/// notification per tag, and carries out the action the user invokes on one.
package final class AgentRunner {
    package struct Settings: Sendable {
        package var filter: NFCReaderFilter = .all
        package var pairWith: PairHandlerChoice = .bluez
        package var pairingOptions = PairingOptions()
        /// How often the session lock is tested when inotify cannot watch it (no watch, no events).
        package var pollInterval: Duration = .milliseconds(200)
        /// With the inotify watch: the safety re-check, the only wakeup when nothing happens.
        package var recheckInterval: Duration = .seconds(5)
        /// After a `session.lock` event, one more test this much later (a session that dies closes
        /// the file just before the kernel drops its lock).
        package var settleDelay: Duration = .milliseconds(100)
        /// Notifications remembered for their actions (the oldest is forgotten first).
        package var rememberedNotifications = 64

        package init() {}
    }

    private let settings: Settings
    private let environment: [String: String]
    private let inbox = AgentInbox()
    private var reader: AgentReader?
    private var readerHold: NFCBackgroundReading.Hold?
    private var paused = false
    /// Tags present when reading resumed after a pause: their first report is not a tap.
    private var skipOnce: Set<String> = []
    /// Restart delay after the session ended by itself.
    private var retryAfter: ContinuousClock.Instant?
    /// Notification (server's unique name + id) → tap, in posting order.
    private var taps: [(notification: DesktopNotifier.Posted, tap: AgentTap)] = []
    /// The launch payload files (nil without a private XDG_RUNTIME_DIR) and when the oldest expires.
    private var payloads: LaunchPayloadStore?
    private var nextSweep: ContinuousClock.Instant?
    private var notifier: DesktopNotifier!
    /// inotify on the session lock's directory (nil: polled every `pollInterval`).
    private var watch: NFCBackgroundReading.SessionWatch?
    private let dispatcher: TapDispatcher

    package init(settings: Settings, environment: [String: String]) {
        self.settings = settings
        self.environment = environment
        dispatcher = TapDispatcher(environment: environment, pairWith: settings.pairWith,
                                   pairingOptions: settings.pairingOptions)
    }

    /// `nfctap agent`: runs the agent's loop on a thread of its own (the D-Bus connection's, which
    /// blocks in sd-bus between wake-ups) until SIGINT/SIGTERM/SIGHUP.
    /// - Throws: `CLIError` (exit 1, already said on stderr) when the session bus fails.
    package static func run(settings: Settings, environment: [String: String]) async throws(CLIError) {
        let status = await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(returning: AgentRunner(settings: settings, environment: environment).run())
            }.start()
        }
        if status != 0 { throw CLIError.reported(status: status) }
    }

    /// Runs until SIGINT/SIGTERM/SIGHUP. Returns the exit code: 0 after a signal, 1 when the session bus fails.
    package func run() -> Int32 {
        let inbox = inbox
        // First, so a signal at any step is a clean stop (exit 0). SIGHUP (the terminal or session
        // that started it went away) ends it as SIGTERM does, not in the middle of a launch; a
        // closed stdout (the journal gone) must not kill it: SIGPIPE ignored.
        signal(SIGPIPE, SIG_IGN)
        let trap = SignalTrap([SIGINT, SIGTERM, SIGHUP], queue: DispatchQueue(label: "nfctap.agent.signals")) { _ in inbox.requestStop() }
        defer { withExtendedLifetime(trap) {} }
        do {
            notifier = try DesktopNotifier(environment: environment, cancelDescriptor: inbox.stopDescriptor)
            notifier.readCapabilities()
            try notifier.listen(action: { [unowned self] sender, id, key in invoked(sender, id, key) },
                                closed: { [unowned self] sender, id, reason in closed(sender, id, reason) },
                                ownerChanged: { [unowned self] old, new in serverChanged(old, new) })
        } catch {
            Stderr.line("nfctap agent: \(error)")
            AgentEvents.emit("error", [("message", .string("\(error)"))])
            return 1
        }
        if NFCBackgroundReading.directory(environment: environment) == nil {
            Stderr.line("nfctap agent: XDG_RUNTIME_DIR is not set: other nfctap sessions cannot pause the agent, "
                        + "and applications cannot be given the tag's message (run it as a systemd user unit)")
        }
        watch = NFCBackgroundReading.SessionWatch(environment: environment)
        let coordinates = NFCBackgroundReading.directory(environment: environment) != nil
        if coordinates && watch == nil {
            Stderr.line("nfctap agent: cannot watch the session lock with inotify; testing it every \(settings.pollInterval)")
        }
        payloads = try? LaunchPayloadStore(environment: environment)
        sweepPayloads()
        AgentEvents.emit("started", [("markup", .bool(notifier.bodyMarkup))])
        var status: Int32 = 0
        var settleAt: ContinuousClock.Instant?
        while !inbox.stopRequested {
            inbox.clearWakeup()
            if watch?.drainEvents() == true { settleAt = ContinuousClock.now + settings.settleDelay }
            coordinateReaders()
            for report in inbox.take() where !inbox.stopRequested { post(report) }
            if let at = nextSweep, ContinuousClock.now >= at { sweepPayloads() }
            // Sleep until traffic, a tag report, a session.lock event, or the next timed check.
            if let at = settleAt, ContinuousClock.now >= at { settleAt = nil }  // this pass was it
            let eventDriven = (watch != nil || !coordinates) && inbox.wakeDescriptor >= 0
            var timeout = eventDriven ? settings.recheckInterval : settings.pollInterval
            for instant in [settleAt, retryAfter, nextSweep].compactMap({ $0 }) {
                timeout = min(timeout, max(.zero, instant - ContinuousClock.now))
            }
            do {
                try notifier.bus.process(until: { inbox.hasWork }, timeout: timeout,
                                         orReadable: [inbox.wakeDescriptor, watch?.fileDescriptor ?? -1].filter { $0 >= 0 })
            } catch {
                Stderr.line("nfctap agent: the session bus failed: \(error)")
                AgentEvents.emit("error", [("message", .string("\(error)"))])
                status = 1
                break
            }
        }
        stopReading()
        return status
    }

    // MARK: Readers

    /// Reads while no other session runs; lets go of the readers while one does.
    private func coordinateReaders() {
        if sessionIsActive() {
            if reader != nil {
                stopReading()
                paused = true
                Stderr.line("nfctap agent: another nfctap session is reading; paused")
                AgentEvents.emit("paused")
            }
            return
        }
        if let reader, let error = reader.endedError {
            // The session ended by itself (e.g. reader service error): start again shortly.
            Stderr.line("nfctap agent: reader session ended: \(error.localizedDescription); restarting")
            stopReading()
            retryAfter = ContinuousClock.now + .seconds(2)
        }
        guard reader == nil else { return }
        if let retryAfter, ContinuousClock.now < retryAfter { return }
        retryAfter = nil
        // Hold agent.lock first, then check again: a session that started in between waits for us.
        let hold = NFCBackgroundReading.holdForAgent(environment: environment)
        if sessionIsActive() { return }
        // Tags left on a reader by the session that just ended are not new taps (as on iOS, a tag
        // read by an app does not come back as a background read): skip their first report.
        if paused { skipOnce = Self.presentTags() }
        let reader = AgentReader(filter: settings.filter, inbox: inbox)
        self.reader = reader
        readerHold = hold
        reader.begin()
        AgentEvents.emit(paused ? "resumed" : "reading")
        if paused { Stderr.line("nfctap agent: resumed reading") }
        paused = false
    }

    /// Through the watch's open descriptor when there is one (testing raises no event itself).
    private func sessionIsActive() -> Bool {
        watch?.sessionIsActive() ?? NFCBackgroundReading.sessionIsActive(environment: environment)
    }

    private func stopReading() {
        reader?.stop()
        reader = nil
        readerHold?.release()
        readerHold = nil
    }

    // MARK: Notifications

    private func post(_ report: NFCTagReport) {
        let key = Self.key(report.tag.reader.name, report.tag.uid)
        if skipOnce.remove(key) != nil {
            AgentEvents.emit("skipped", [("uid", .string(report.tag.uid.hexString)), ("reader", .string(report.tag.reader.name)),
                                         ("reason", .string("on the reader when reading resumed"))])
            return
        }
        guard report.completed else {
            // As iOS background reading: a failed read (tag pulled away) shows nothing; logged only.
            AgentEvents.emit("unread", [("uid", .string(report.tag.uid.hexString)), ("reader", .string(report.tag.reader.name)),
                                        ("readError", .string(report.error?.localizedDescription ?? "read incomplete"))])
            return
        }
        let directories = XDGDataDirectories.all(environment: environment)
        let index = DesktopEntryIndex(dataDirectories: directories, locale: Self.locale(environment),
                                      currentDesktops: DesktopVisibility.currentDesktops(environment: environment))
        for problem in index.problems {
            Stderr.line("nfctap agent: ignoring \(problem.path): \(problem.reason)")
        }
        let tap = AgentTap(report: report, claims: index.claim(for:))
        var fields: [(String, JSONValue)] = [
            ("uid", .string(report.tag.uid.hexString)), ("reader", .string(report.tag.reader.name)),
            ("summary", .string(tap.summary)), ("action", .string(Self.actionName(tap.action))),
        ]
        if case let .launch(claim, _)? = tap.action { fields.append(("application", .string(claim.application.id))) }
        do {
            let posted = try notifier.notify(summary: tap.summary, bodyLines: tap.bodyLines, actions: tap.actions)
            // A server that hands out an id again (or replaces a notification) replaced the old one:
            // a click on it is about this tap only.
            taps.removeAll { $0.notification == posted }
            taps.append((posted, tap))
            if taps.count > settings.rememberedNotifications { taps.removeFirst() }
            AgentEvents.emit("tap", [("notification", .int(Int(posted.id)))] + fields)
        } catch {
            Stderr.line("nfctap agent: could not show a notification: \(error)")
            AgentEvents.emit("tap", fields + [("error", .string("\(error)"))])
        }
    }

    /// An action of the server `sender`: only one of the notifications that server issued to us.
    private func invoked(_ sender: String, _ id: UInt32, _ key: String) {
        let posted = DesktopNotifier.Posted(owner: sender, id: id)
        guard let tap = taps.first(where: { $0.notification == posted })?.tap else { return }  // not ours
        guard let action = tap.action, key == "default" || key == action.key else { return }
        var fields: [(String, JSONValue)] = [("notification", .int(Int(id))), ("key", .string(key))]
        do {
            let json = TagReportJSON.object(tap.report).jsonText
            defer { schedulePayloadSweep() }
            switch try dispatcher.perform(tap, bus: notifier.bus, jsonText: json, pairingFinished: { text in
                Stderr.line("nfctap agent: \(SafeText.escaped(text))")
                AgentEvents.emit("paired", [("notification", .int(Int(id))), ("result", .string(text))])
            }) {
            case let .done(text):
                Stderr.line("nfctap agent: \(SafeText.escaped(text))")
                fields.append(("result", .string(text)))
            case .pairingStarted:
                fields.append(("result", .string("pairing started")))
            }
        } catch {
            Stderr.line("nfctap agent: \(error)")
            fields.append(("error", .string("\(error)")))
        }
        AgentEvents.emit("action", fields)
    }

    private func closed(_ sender: String, _ id: UInt32, _ reason: UInt32) {
        let posted = DesktopNotifier.Posted(owner: sender, id: id)
        guard let i = taps.firstIndex(where: { $0.notification == posted }) else { return }
        taps.remove(at: i)
        AgentEvents.emit("closed", [("notification", .int(Int(id))), ("reason", .int(Int(reason)))])
    }

    /// The notification server went away or was replaced: its notifications (and their actions)
    /// are gone with it; ids from the next one mean other notifications (docs/desktop-agent.md §1).
    private func serverChanged(_ old: String, _ new: String) {
        let dropped = taps.filter { $0.notification.owner != new }
        taps.removeAll { $0.notification.owner != new }
        AgentEvents.emit("server", [("owner", .string(new)), ("forgotten", .int(dropped.count))])
        if !dropped.isEmpty {
            Stderr.line("nfctap agent: the notification server \(new.isEmpty ? "stopped" : "changed"); "
                        + "forgot the actions of \(dropped.count) notification(s)")
        }
    }

    // MARK: Launch payloads

    /// Removes expired payload files and sets the loop's next wake-up for the oldest one left.
    private func sweepPayloads() {
        payloads?.sweep()
        schedulePayloadSweep()
    }

    private func schedulePayloadSweep() {
        guard let expiry = payloads?.nextExpiry() else { nextSweep = nil; return }
        // A little after the expiry, so the file is past its lifetime when the loop wakes.
        let delay = max(0, expiry.timeIntervalSinceNow) + 0.05
        nextSweep = ContinuousClock.now + .milliseconds(Int64(delay * 1000))
    }

    /// reader name + UID of the tags on the PC/SC readers now (libnfc devices are not looked at).
    package static func presentTags() -> Set<String> {
        guard let snapshot = try? PCSCBackend().snapshot() else { return [] }
        return Set(snapshot.compactMap { entry in entry.tag.map { key(entry.reader.name, $0.uid) } })
    }

    package static func key(_ reader: String, _ uid: [UInt8]) -> String { reader + "\u{0}" + uid.hexString }

    package static func actionName(_ action: AgentTap.Action?) -> String {
        switch action {
        case .launch?: return "launch"
        case .openWithDefault?: return "open"
        case .pair?: return "pair"
        case nil: return "none"
        }
    }

    package static func locale(_ environment: [String: String]) -> String? {
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let v = environment[key], !v.isEmpty { return v }
        }
        return nil
    }
}
