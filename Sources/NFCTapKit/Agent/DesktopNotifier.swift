import DesktopIntegration
import Foundation
import SDBus

/// The freedesktop Desktop Notifications API on the session bus (`org.freedesktop.Notifications`):
/// `Notify` per tap, `ActionInvoked` / `NotificationClosed` heard back. Use from one thread.
///
/// A notification id means something only to the server instance that issued it: a restarted
/// server counts from 1 again, and its notification 1 is another application's. So each `Notify`
/// goes to the unique name that owns the well-known name at that moment, the id is kept with that
/// owner, signals carry their sender's unique name, and a change of owner (`NameOwnerChanged`) is
/// reported (docs/desktop-agent.md §1).
package final class DesktopNotifier {
    package static let name = "org.freedesktop.Notifications"
    package static let path = "/org/freedesktop/Notifications"
    /// The agent's desktop file ID without `.desktop` (the `desktop-entry` hint): `desktop/nfctap-agent.desktop`.
    package static let desktopEntry = "nfctap-agent"
    /// The icon name sent as `app_icon` (the Icon Naming Specification's wireless device icon, in every theme).
    package static let iconName = "network-wireless"

    /// A notification as the server that issued it knows it.
    package struct Posted: Equatable {
        /// The server's unique bus name (`:1.42`).
        package var owner: String
        package var id: UInt32
    }

    package let bus: DBusConnection
    /// The server renders body markup (`body-markup` capability): tag text is escaped then.
    private(set) var bodyMarkup = true
    /// Capabilities are asked again after the server changed.
    private var capabilitiesOwner: String?
    private var subscriptions: [DBusSubscription] = []
    /// Readable when the agent is stopping: a call to a server that does not answer is given up.
    private let cancelDescriptor: Int32

    /// Connects to the session bus: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`.
    /// - Throws: `DBusError` when there is no session bus.
    package init(environment: [String: String], cancelDescriptor: Int32 = -1) throws {
        bus = try DBusConnection.session(environment: environment)
        self.cancelDescriptor = cancelDescriptor
    }

    /// The unique name owning `org.freedesktop.Notifications` now; nil when no server runs (or the
    /// bus does not answer).
    package func currentOwner() -> String? {
        guard let reply = try? bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                        interface: "org.freedesktop.DBus", member: "GetNameOwner",
                                        arguments: [.string(Self.name)], timeout: .seconds(5)),
              case let .string(owner)? = reply.first, owner.hasPrefix(":") else { return nil }
        return owner
    }

    /// The owner, starting the server first when none runs: a server installed as an activatable
    /// service (mako, dunst, …) starts on its first call (`StartServiceByName`, as sending to the
    /// well-known name would).
    package func ownerStartingServer() -> String? {
        if let owner = currentOwner() { return owner }
        _ = try? bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                          member: "StartServiceByName", arguments: [.string(Self.name), .uint32(0)],
                          timeout: .seconds(10), cancelDescriptor: cancelDescriptor)
        return currentOwner()
    }

    /// Asks `owner` what it supports (`GetCapabilities`); a server that does not answer keeps
    /// the safe assumption (markup on, so text stays escaped).
    package func readCapabilities(of owner: String? = nil) {
        guard let owner = owner ?? currentOwner() else { return }
        capabilitiesOwner = owner
        bodyMarkup = true
        guard let reply = try? bus.call(destination: owner, path: Self.path, interface: Self.name,
                                        member: "GetCapabilities", timeout: .seconds(5), cancelDescriptor: cancelDescriptor),
              let caps = reply.first?.elements?.compactMap(\.string) else { return }
        bodyMarkup = caps.contains("body-markup")
    }

    /// Listens for the server's signals (delivered from the owner of `org.freedesktop.Notifications`
    /// only; each handler gets the sender's unique name) and for changes of that owner
    /// (`ownerChanged(old, new)`, empty strings for none).
    package func listen(action: @escaping (_ sender: String, _ id: UInt32, _ key: String) -> Void,
                        closed: @escaping (_ sender: String, _ id: UInt32, _ reason: UInt32) -> Void,
                        ownerChanged: @escaping (_ old: String, _ new: String) -> Void) throws {
        let base = "type='signal',sender='\(Self.name)',path='\(Self.path)',interface='\(Self.name)'"
        subscriptions.append(try bus.addMatch(base + ",member='ActionInvoked'") { signal in
            guard let sender = signal.sender, signal.arguments.count >= 2, case let .uint32(id) = signal.arguments[0],
                  case let .string(key) = signal.arguments[1] else { return }
            action(sender, id, key)
        })
        subscriptions.append(try bus.addMatch(base + ",member='NotificationClosed'") { signal in
            guard let sender = signal.sender, signal.arguments.count >= 2, case let .uint32(id) = signal.arguments[0],
                  case let .uint32(reason) = signal.arguments[1] else { return }
            closed(sender, id, reason)
        })
        let owner = "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
            + "member='NameOwnerChanged',arg0='\(Self.name)'"
        subscriptions.append(try bus.addMatch(owner) { signal in
            guard signal.sender == "org.freedesktop.DBus", signal.arguments.count >= 3,
                  case let .string(name) = signal.arguments[0], name == Self.name,
                  case let .string(old) = signal.arguments[1], case let .string(new) = signal.arguments[2] else { return }
            ownerChanged(old, new)
        })
    }

    /// `Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout)`, sent
    /// to the server's unique name. The summary and every body line go through the one sanitiser
    /// (`NotificationText`), the body escaped when that server renders markup. Returns the server's
    /// unique name and its notification id.
    /// - Throws: `DBusError` (no notification server, …).
    package func notify(summary: String, bodyLines: [String], actions: [String]) throws -> Posted {
        guard let owner = ownerStartingServer() else {
            throw DBusError(name: "org.freedesktop.DBus.Error.ServiceUnknown", message: "no notification server owns or provides \(Self.name)")
        }
        if owner != capabilitiesOwner { readCapabilities(of: owner) }
        let summary = NotificationText.summary(summary)
        let body = NotificationText.body(lines: bodyLines, markup: bodyMarkup)
        let hints: [String: DBusValue] = ["category": .string("device"), "urgency": .byte(1),
                                          "desktop-entry": .string(Self.desktopEntry)]
        let reply = try bus.call(destination: owner, path: Self.path, interface: Self.name, member: "Notify",
                                 arguments: [.string("nfctap"), .uint32(0), .string(Self.iconName), .string(summary), .string(body),
                                             .strings(actions), .properties(hints), .int32(-1)],
                                 timeout: .seconds(5), cancelDescriptor: cancelDescriptor)
        guard case let .uint32(id)? = reply.first else {
            throw DBusError(name: "org.freedesktop.DBus.Error.InvalidSignature", message: "Notify did not return u")
        }
        return Posted(owner: owner, id: id)
    }
}
