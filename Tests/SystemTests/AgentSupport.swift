import Foundation
import Glibc
import NDEF
import SDBus
import Testing
@testable import Pairing

/// python3-dbusmock's `notification_daemon` template on the private bus (as the session bus):
/// the desktop's notification server, with its call log and a way to emit its signals.
final class NotificationServerMock {
    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    let address: String
    let control: DBusConnection
    private let process = Process()

    init() throws {
        address = try #require(BlueZMock.busAddress, "NFCTAP_TEST_DBUS_ADDRESS is not set: run ./scripts/test.sh")
        control = try DBusConnection(address: address)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-m", "dbusmock", "--template", "notification_daemon"]
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let pid = UInt32(process.processIdentifier)
        let wake = try control.addMatch("type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.name)'") { _ in }
        defer { wake.cancel() }
        let owned = try control.process(until: { (try? self.ownerPID()) == pid }, timeout: .seconds(15))
        try #require(owned, "the notification_daemon mock did not claim \(Self.name)")
    }

    deinit { stop() }

    /// Ends the server (as a crashed or restarted notification daemon).
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    private func ownerPID() throws -> UInt32? {
        let r = try control.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                 interface: "org.freedesktop.DBus", member: "GetConnectionUnixProcessID",
                                 arguments: [.string(Self.name)])
        guard case .uint32(let pid)? = r.first else { return nil }
        return pid
    }

    /// The arguments of every `Notify` call so far.
    func notifyCalls() throws -> [[DBusValue]] {
        let reply = try control.call(destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Mock",
                                     member: "GetMethodCalls", arguments: [.string("Notify")])
        return (reply.first?.elements ?? []).compactMap { call in
            guard case .structure(let fields) = call, fields.count == 2 else { return nil }
            return fields[1].elements?.map(\.unwrapped)
        }
    }

    /// From now on `Notify` answers `id` every time (a server that reuses or replaces ids).
    func answerEveryNotify(with id: UInt32) throws {
        _ = try control.call(destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Mock", member: "AddMethod",
                             arguments: [.string(Self.name), .string("Notify"), .string("susssasa{sv}i"), .string("u"),
                                         .string("ret = dbus.UInt32(\(id))")])
    }

    /// From now on `Notify` (or `GetCapabilities`) hangs for `seconds`, the whole server with it
    /// (dbusmock runs one loop).
    func hang(capabilities: Bool = false, seconds: Int) throws {
        let (member, input, output, value) = capabilities
            ? ("GetCapabilities", "", "as", "['body', 'actions']") : ("Notify", "susssasa{sv}i", "u", "dbus.UInt32(1)")
        _ = try control.call(destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Mock", member: "AddMethod",
                             arguments: [.string(Self.name), .string(member), .string(input), .string(output),
                                         .string("import time; time.sleep(\(seconds)); ret = \(value)")])
    }

    /// The server's `ActionInvoked(id, key)` signal, as when the user clicks.
    func invoke(_ id: UInt32, _ key: String) throws {
        _ = try control.call(destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Mock", member: "EmitSignal",
                         arguments: [.string(Self.name), .string("ActionInvoked"), .signature("us"),
                                     .array(elementType: "v", [.variant(.uint32(id)), .variant(.string(key))])])
    }
}

/// One `Notify` call, field by field.
struct NotifyCall: Equatable {
    var appName: String
    var replacesID: UInt32
    var appIcon: String
    var hints: [String: DBusValue]
    var summary: String
    var body: String
    var actions: [String]
    var timeout: Int32

    init?(_ args: [DBusValue]) {
        guard args.count == 8, case let .string(app) = args[0], case let .uint32(replaces) = args[1],
              case let .string(icon) = args[2], case let .string(summary) = args[3], case let .string(body) = args[4],
              case let .int32(timeout) = args[7] else { return nil }
        appName = app
        replacesID = replaces
        appIcon = icon
        hints = (args[6].stringKeyed ?? [:]).mapValues(\.unwrapped)
        self.summary = summary
        self.body = body
        actions = args[5].elements?.compactMap(\.string) ?? []
        self.timeout = timeout
    }
}

/// A desktop for the agent in a scratch directory: XDG runtime/data/config directories, a bin
/// directory with recording stubs, and the agent process with that environment.
final class AgentDesk {
    let root: URL
    var runtime: String { root.appendingPathComponent("runtime").path }
    var dataHome: String { root.appendingPathComponent("data").path }
    var dataDirs: String { root.appendingPathComponent("system-data").path }
    var configHome: String { root.appendingPathComponent("config").path }
    var bin: String { root.appendingPathComponent("bin").path }
    var output: String { root.appendingPathComponent("out").path }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-agent-\(UUID().uuidString)")
        for dir in [runtime, dataHome + "/applications", dataDirs + "/applications", configHome, bin, output] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
        chmod(runtime, 0o700)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// What the agent (and every program it starts) sees.
    func environment(busAddress: String) -> [String: String] {
        [
            "DBUS_SESSION_BUS_ADDRESS": busAddress,
            "XDG_RUNTIME_DIR": runtime,
            "XDG_DATA_HOME": dataHome,
            "XDG_DATA_DIRS": dataDirs,
            "XDG_CONFIG_HOME": configHome,
            "XDG_CONFIG_DIRS": configHome,
            "HOME": root.path,
            // xdg-open asks the desktop's URL handler only when there is a display.
            "WAYLAND_DISPLAY": "wayland-nfctap-test",
            "PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        ]
    }

    /// An executable written with O_CLOEXEC (an inherited write descriptor would make exec fail with ETXTBSY).
    func writeProgram(_ name: String, _ text: String) throws -> String {
        let path = bin + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard Glibc.write(fd, bytes, bytes.count) == bytes.count else { throw POSIXError(.EIO) }
        return path
    }

    /// A stub program recording its argv, NFCTAP_NDEF_FILE's path, mode and bytes, and the JSON
    /// file, in `out/<name>/`. The test's own program: tag data only ever reaches it as argv/files.
    func recordingApp(_ name: String) throws -> String {
        let dir = output + "/" + name
        return try writeProgram(name, """
            #!/bin/sh
            out='\(dir)'
            mkdir -p "$out.tmp"
            for a in "$@"; do printf '%s\\n' "$a"; done > "$out.tmp/argv"
            printf '%s' "$NFCTAP_NDEF_FILE" > "$out.tmp/ndef-path"
            if [ -n "$NFCTAP_NDEF_FILE" ]; then
                cp "$NFCTAP_NDEF_FILE" "$out.tmp/message.ndef"
                stat -c %a "$NFCTAP_NDEF_FILE" > "$out.tmp/mode"
                cp "$NFCTAP_NDEF_JSON_FILE" "$out.tmp/message.json"
            fi
            mv "$out.tmp" "$out"

            """)
    }

    /// Waits (bounded) until the stub `name` ran; returns its record directory.
    func waitForRun(of name: String, seconds: Double = 15) -> String? {
        let dir = output + "/" + name
        let limit = Date().addingTimeInterval(seconds)
        while Date() < limit {
            if FileManager.default.fileExists(atPath: dir) { return dir }
            usleep(50_000)
        }
        return nil
    }

    func ran(_ name: String) -> Bool { FileManager.default.fileExists(atPath: output + "/" + name) }

    /// A desktop entry in `$XDG_DATA_HOME/applications`.
    @discardableResult
    func desktopEntry(_ id: String, name: String, exec: String, prefixes: String?, extra: String = "") throws -> String {
        var text = "[Desktop Entry]\nType=Application\nName=\(name)\nExec=\(exec)\n"
        if let prefixes { text += "X-NFC-URL-Prefixes=\(prefixes)\n" }
        text += extra
        let path = dataHome + "/applications/" + id
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The recording stub `browser-stub` as the user's default handler (xdg-mime) of `schemes`.
    func defaultHandlerStub(for schemes: [String], busAddress: String) throws {
        let browser = try recordingApp("browser-stub")
        try desktopEntry("browser-stub.desktop", name: "Browser Stub", exec: "\(browser) %u", prefixes: nil,
                         extra: "MimeType=" + schemes.map { "x-scheme-handler/\($0);" }.joined() + "\n")
        for scheme in schemes {
            _ = try run("/usr/bin/xdg-mime", ["default", "browser-stub.desktop", "x-scheme-handler/\(scheme)"], busAddress: busAddress)
        }
    }

    /// Runs a program with the desk's environment; returns its status and output.
    func run(_ program: String, _ args: [String], busAddress: String) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment(busAddress: busAddress) { env[k] = v }
        p.environment = env
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: out, as: UTF8.self))
    }
}

/// The agent's stdout events.
extension CLIProcess {
    func events(_ name: String) -> [[String: Any]] {
        lines.compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["event"] as? String == name else { return nil }
            return object
        }
    }

    /// Waits (bounded) until `count` events called `name` were printed; returns them.
    @discardableResult
    func waitForEvents(_ name: String, count: Int = 1, seconds: Double = 20,
                       sourceLocation: SourceLocation = #_sourceLocation) -> [[String: Any]] {
        let limit = Date().addingTimeInterval(seconds)
        while Date() < limit {
            let found = events(name)
            if found.count >= count { return found }
            usleep(50_000)
        }
        Issue.record("no \(count)× \"\(name)\" event; stdout: \(lines)", sourceLocation: sourceLocation)
        return events(name)
    }
}

/// A generic python3-dbusmock object as the desktop portal (`org.freedesktop.portal.OpenURI`),
/// recording `OpenURI` calls.
final class OpenURIPortalMock {
    static let name = "org.freedesktop.portal.Desktop"
    static let path = "/org/freedesktop/portal/desktop"
    let control: DBusConnection
    private let process = Process()

    init(address: String) throws {
        control = try DBusConnection(address: address)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-m", "dbusmock", Self.name, Self.path, "org.freedesktop.portal.OpenURI"]
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let wake = try control.addMatch("type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.name)'") { _ in }
        defer { wake.cancel() }
        let owned = try control.process(until: { self.owned }, timeout: .seconds(15))
        try #require(owned, "the portal mock did not claim \(Self.name)")
        _ = try control.call(destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Mock", member: "AddMethod",
                         arguments: [.string("org.freedesktop.portal.OpenURI"), .string("OpenURI"), .string("ssa{sv}"),
                                     .string("o"), .string("ret = dbus.ObjectPath('/org/freedesktop/portal/desktop/request/1/t')")])
    }

    private var owned: Bool {
        guard let r = try? control.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                        interface: "org.freedesktop.DBus", member: "GetConnectionUnixProcessID",
                                        arguments: [.string(Self.name)]),
              case .uint32(let pid)? = r.first else { return false }
        return pid == UInt32(process.processIdentifier)
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The arguments of every `OpenURI` call so far.
    func openURICalls() throws -> [[DBusValue]] {
        let reply = try control.call(destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Mock",
                                     member: "GetMethodCalls", arguments: [.string("OpenURI")])
        return (reply.first?.elements ?? []).compactMap { call in
            guard case .structure(let fields) = call, fields.count == 2 else { return nil }
            return fields[1].elements?.map(\.unwrapped)
        }
    }
}
