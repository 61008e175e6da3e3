import Foundation
import SDBus

/// The freedesktop Desktop Notifications API on the session bus (`org.freedesktop.Notifications`):
/// `Notify` per tap, `ActionInvoked` / `NotificationClosed` heard back. Use from one thread.
package final class DesktopNotifier {
    package static let name = "org.freedesktop.Notifications"
    package static let path = "/org/freedesktop/Notifications"

    package let bus: DBusConnection
    /// The server renders body markup (`body-markup` capability): tag text is escaped then.
    private(set) var bodyMarkup = true
    private var subscriptions: [DBusSubscription] = []

    /// Connects to the session bus: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`.
    /// - Throws: `DBusError` when there is no session bus.
    package init(environment: [String: String]) throws {
        bus = try DBusConnection.session(environment: environment)
    }

    /// Asks the server what it supports (`GetCapabilities`); a server that does not answer keeps
    /// the safe assumption (markup on, so text stays escaped).
    package func readCapabilities() {
        guard let reply = try? bus.call(destination: Self.name, path: Self.path, interface: Self.name,
                                        member: "GetCapabilities", timeout: .seconds(5)),
              let caps = reply.first?.elements?.compactMap(\.string) else { return }
        bodyMarkup = caps.contains("body-markup")
    }

    /// Listens for the server's signals (sent by the owner of `org.freedesktop.Notifications` only).
    package func listen(action: @escaping (UInt32, String) -> Void, closed: @escaping (UInt32, UInt32) -> Void) throws {
        let base = "type='signal',sender='\(Self.name)',path='\(Self.path)',interface='\(Self.name)'"
        subscriptions.append(try bus.addMatch(base + ",member='ActionInvoked'") { signal in
            guard signal.arguments.count >= 2, case let .uint32(id) = signal.arguments[0],
                  case let .string(key) = signal.arguments[1] else { return }
            action(id, key)
        })
        subscriptions.append(try bus.addMatch(base + ",member='NotificationClosed'") { signal in
            guard signal.arguments.count >= 2, case let .uint32(id) = signal.arguments[0],
                  case let .uint32(reason) = signal.arguments[1] else { return }
            closed(id, reason)
        })
    }

    /// `Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout)`.
    /// Returns the server's notification id.
    /// - Throws: `DBusError` (no notification server, …).
    package func notify(summary: String, body: String, actions: [String]) throws -> UInt32 {
        let hints: [String: DBusValue] = ["category": .string("device"), "urgency": .byte(1)]
        let reply = try bus.call(destination: Self.name, path: Self.path, interface: Self.name, member: "Notify",
                                 arguments: [.string("nfctap"), .uint32(0), .string(""), .string(summary), .string(body),
                                             .strings(actions), .properties(hints), .int32(-1)],
                                 timeout: .seconds(5))
        guard case let .uint32(id)? = reply.first else {
            throw DBusError(name: "org.freedesktop.DBus.Error.InvalidSignature", message: "Notify did not return u")
        }
        return id
    }
}
