import Foundation
import SDBus
import Testing
@testable import Pairing

/// Parent of every suite that runs a BlueZ mock: they all claim `org.bluez` on the one private
/// bus, so they must not run at the same time (`.serialized` applies to the nested suites).
@Suite(.serialized, .enabled(if: SystemEnvironment.available("dbus")))
struct BlueZSystemTests {}

/// One python3-dbusmock `bluez5` mock (plus the Zebra helpers in Fixtures/bluez_zebra.py) on the
/// private bus scripts/services/dbus.sh started. Each test starts its own and stops it on deinit.
final class BlueZMock {
    let address: String
    let control: DBusConnection
    private let process: Process

    static var busAddress: String? { SystemEnvironment.environment["NFCTAP_TEST_DBUS_ADDRESS"] }
    static let fixture = SystemEnvironment.packageRoot.appendingPathComponent("Tests/SystemTests/Fixtures/bluez_zebra.py").path

    /// Starts the mock and waits (bounded) until it owns `org.bluez`.
    init(start: Bool = true) throws {
        address = try #require(Self.busAddress, "NFCTAP_TEST_DBUS_ADDRESS is not set: run ./scripts/test.sh")
        control = try DBusConnection(address: address)
        process = Process()
        guard start else { return }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-m", "dbusmock", "--template", Self.fixture]
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SYSTEM_BUS_ADDRESS"] = address
        process.environment = env
        process.standardOutput = FileHandle.nullDevice   // the mock logs every call to stdout
        try process.run()
        // Wait for *this* mock to own the name (not a previous test's, still being released).
        let pid = process.processIdentifier
        // process(until:) sleeps until traffic arrives on this connection: the name change wakes it.
        let wake = try control.addMatch("type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.bluez'") { _ in }
        defer { wake.cancel() }
        let owned = try control.process(until: { (try? self.ownerPID()) == UInt32(pid) }, timeout: .seconds(15))
        try #require(owned, "the bluez5 mock did not claim org.bluez")
    }

    deinit {
        // SIGKILL: the mock may inherit SIGTERM as ignored from the test runner, and then
        // terminate() would leave waitUntilExit() hanging.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    private func ownerPID() throws -> UInt32? {
        let r = try control.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                 interface: "org.freedesktop.DBus", member: "GetConnectionUnixProcessID",
                                 arguments: [.string("org.bluez")])
        guard case .uint32(let pid)? = r.first else { return nil }
        return pid
    }

    /// Calls an `org.bluez.Mock` method on the root object.
    @discardableResult
    func mock(_ member: String, _ args: [DBusValue] = []) throws -> [DBusValue] {
        try control.call(destination: "org.bluez", path: "/", interface: "org.bluez.Mock", member: member, arguments: args)
    }

    @discardableResult
    func addAdapter(_ name: String = "hci0") throws -> String {
        try mock("AddAdapter", [.string(name), .string("nfctap-test")]).first?.string ?? ""
    }

    @discardableResult
    func addDevice(_ address: String, name: String, adapter: String = "hci0") throws -> String {
        try mock("AddDevice", [.string(adapter), .string(address), .string(name)]).first?.string ?? ""
    }

    func property(_ path: String, _ interface: String, _ name: String) throws -> DBusValue {
        try control.property(destination: "org.bluez", path: path, interface: interface, name: name)
    }

    func set(_ path: String, _ interface: String, _ name: String, _ value: DBusValue) throws {
        try control.setProperty(destination: "org.bluez", path: path, interface: interface, name: name, value: value)
    }

    /// The arguments of each logged call of `method` on the object at `path` (dbusmock's call log).
    func calls(_ path: String, _ method: String) throws -> [[DBusValue]] {
        let reply = try control.call(destination: "org.bluez", path: path, interface: "org.freedesktop.DBus.Mock",
                                     member: "GetMethodCalls", arguments: [.string(method)])
        return (reply.first?.elements ?? []).compactMap { call in
            guard case .structure(let fields) = call, fields.count == 2 else { return nil }
            return fields[1].elements?.map(\.unwrapped)
        }
    }
}
