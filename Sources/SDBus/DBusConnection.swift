import CSDBus
import Glibc

/// A message received: a signal through a match, or a method call to an exported object.
package struct DBusIncoming: Sendable {
    package var path: String
    package var interface: String
    package var member: String
    package var sender: String?
    package var arguments: [DBusValue]

    package init(path: String, interface: String, member: String, sender: String?, arguments: [DBusValue]) {
        self.path = path
        self.interface = interface
        self.member = member
        self.sender = sender
        self.arguments = arguments
    }

    /// The header fields of an sd-bus message, with its arguments as read.
    init(message: OpaquePointer, arguments: [DBusValue]) {
        func text(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }
        self.init(path: text(sd_bus_message_get_path(message)),
                  interface: text(sd_bus_message_get_interface(message)),
                  member: text(sd_bus_message_get_member(message)),
                  sender: sd_bus_message_get_sender(message).map { String(cString: $0) },
                  arguments: arguments)
    }
}

/// A signal received through a match.
package typealias DBusSignal = DBusIncoming
/// A method call received by an exported object.
package typealias DBusMethodCall = DBusIncoming

/// What an exported object answers.
package enum DBusMethodReply: Sendable {
    case success([DBusValue])
    case error(name: String, message: String)
    /// Let sd-bus answer (`UnknownMethod`).
    case notHandled
}

/// A client connection over sd-bus (libsystemd). Not thread-safe: use it from one thread
/// (it is not `Sendable`, so Swift 6 keeps it there).
///
/// Every blocking operation runs the connection's event loop (`sd_bus_process` + `sd_bus_wait`)
/// with a deadline, so signal handlers and exported objects (the pairing agent) are served while
/// a call is pending: BlueZ calls the agent *during* `Device1.Pair`.
package final class DBusConnection {
    private let bus: OpaquePointer

    /// Opens the system bus. Wraps `sd_bus_open_system`, which honours `DBUS_SYSTEM_BUS_ADDRESS`.
    /// - Throws: `DBusError` (e.g. `System.Error.ENOENT` when no bus socket exists).
    package static func system() throws -> DBusConnection {
        var bus: OpaquePointer? = nil
        let r = sd_bus_open_system(&bus)
        guard r >= 0, let bus else { throw DBusError(code: r, during: "connecting to the system bus") }
        return DBusConnection(bus: bus)
    }

    /// The user's session bus address from an environment: `DBUS_SESSION_BUS_ADDRESS`, else
    /// `unix:path=$XDG_RUNTIME_DIR/bus` (where systemd's user bus listens).
    /// - Throws: `DBusError` `org.freedesktop.DBus.Error.FileNotFound` when neither is set.
    package static func sessionAddress(environment: [String: String]) throws -> String {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return "unix:path=\(runtime)/bus" }
        throw DBusError(name: "org.freedesktop.DBus.Error.FileNotFound",
                        message: "no session bus: DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are not set")
    }

    /// Connects to the user's session bus (`sessionAddress(environment:)`), as a bus client.
    /// - Throws: `DBusError` when there is no session bus or nothing listens there.
    package static func session(environment: [String: String]) throws -> DBusConnection {
        try DBusConnection(address: sessionAddress(environment: environment))
    }

    /// Connects to a bus at a D-Bus address (`unix:path=…`, `unix:abstract=…`, as a bus client).
    /// Wraps `sd_bus_new`, `sd_bus_set_address`, `sd_bus_set_bus_client`, `sd_bus_start`.
    /// - Throws: `DBusError` when the address is malformed or nothing listens there.
    package init(address: String) throws {
        var bus: OpaquePointer? = nil
        var r = sd_bus_new(&bus)
        guard r >= 0, let bus else { throw DBusError(code: r, during: "creating a bus connection") }
        r = sd_bus_set_address(bus, address)
        if r >= 0 { r = sd_bus_set_bus_client(bus, 1) }
        if r >= 0 { r = sd_bus_start(bus) }
        if r < 0 {
            sd_bus_unref(bus)
            throw DBusError(code: r, during: "connecting to \(address)")
        }
        self.bus = bus
    }

    private init(bus: OpaquePointer) {
        self.bus = bus
    }

    deinit {
        sd_bus_flush_close_unref(bus)
    }

    /// The connection's unique name on the bus (`:1.42`).
    package var uniqueName: String? {
        var p: UnsafePointer<CChar>? = nil
        guard sd_bus_get_unique_name(bus, &p) >= 0, let p else { return nil }
        return String(cString: p)
    }

    // MARK: Method calls

    /// Calls a method and returns the reply's arguments. Wraps `sd_bus_call_async` and runs the
    /// event loop until the reply (or sd-bus's own timeout) arrives, or `cancelDescriptor` (when
    /// not -1) becomes readable: a stop request does not wait for a peer that does not answer.
    /// - Throws: `DBusError` with the peer's error name, `org.freedesktop.DBus.Error.NoReply` on
    ///   timeout, `DBusError.cancelledName` when `cancelDescriptor` ended the wait.
    package func call(destination: String, path: String, interface: String, member: String,
                      arguments: [DBusValue] = [], timeout: Duration = .seconds(25),
                      cancelDescriptor: Int32 = -1) throws -> [DBusValue] {
        var message: OpaquePointer? = nil
        var r = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
        guard r >= 0, let message else { throw DBusError(code: r, during: "building \(interface).\(member)") }
        defer { sd_bus_message_unref(message) }
        try DBusMessageCoding.append(arguments, to: message)

        let pending = PendingCall()
        var slot: OpaquePointer? = nil
        r = sd_bus_call_async(bus, &slot, message, { reply, userdata, _ in
            let pending = Unmanaged<PendingCall>.fromOpaque(userdata!).takeUnretainedValue()
            pending.complete(with: reply)
            return 1
        }, Unmanaged.passUnretained(pending).toOpaque(), Self.microseconds(timeout))
        guard r >= 0 else { throw DBusError(code: r, during: "calling \(interface).\(member)") }
        defer { sd_bus_slot_unref(slot) }

        // sd-bus delivers a NoReply error when its timeout passes; the extra second only guards
        // against a loop that never gets that far.
        let answered = try process(until: { pending.result != nil }, timeout: timeout + .seconds(1),
                                   orReadable: cancelDescriptor >= 0 ? [cancelDescriptor] : [])
        guard let result = pending.result else {
            if answered { throw DBusError(name: DBusError.cancelledName, message: "\(interface).\(member) abandoned") }
            throw DBusError(name: DBusError.noReplyName, message: "\(interface).\(member) timed out")
        }
        return try result.get()
    }

    /// `org.freedesktop.DBus.Properties.Get`, variant removed.
    package func property(destination: String, path: String, interface: String, name: String) throws -> DBusValue {
        let reply = try call(destination: destination, path: path, interface: Self.propertiesInterface, member: "Get",
                             arguments: [.string(interface), .string(name)])
        guard let v = reply.first else {
            throw DBusError(name: "org.freedesktop.DBus.Error.InvalidSignature", message: "empty reply to Get \(name)")
        }
        return v.unwrapped
    }

    /// `org.freedesktop.DBus.Properties.Set`; the value is wrapped in a variant here.
    package func setProperty(destination: String, path: String, interface: String, name: String,
                             value: DBusValue) throws {
        _ = try call(destination: destination, path: path, interface: Self.propertiesInterface, member: "Set",
                     arguments: [.string(interface), .string(name), .variant(value)])
    }

    /// `org.freedesktop.DBus.Properties.GetAll`: name → value.
    package func allProperties(destination: String, path: String, interface: String) throws -> [String: DBusValue] {
        let reply = try call(destination: destination, path: path, interface: Self.propertiesInterface, member: "GetAll",
                             arguments: [.string(interface)])
        guard let dict = reply.first?.stringKeyed else {
            throw DBusError(name: "org.freedesktop.DBus.Error.InvalidSignature", message: "GetAll did not return a{sv}")
        }
        return dict
    }

    /// `org.freedesktop.DBus.ObjectManager.GetManagedObjects`: path → interface → property → value.
    package func managedObjects(destination: String, path: String = "/") throws -> ManagedObjects {
        let reply = try call(destination: destination, path: path,
                             interface: "org.freedesktop.DBus.ObjectManager", member: "GetManagedObjects")
        guard let first = reply.first, let objects = ManagedObjects(first) else {
            throw DBusError(name: "org.freedesktop.DBus.Error.InvalidSignature",
                            message: "GetManagedObjects did not return a{oa{sa{sv}}}")
        }
        return objects
    }

    // MARK: Signals

    /// Subscribes to signals matching a rule (`type='signal',sender='org.bluez',member='InterfacesAdded'`).
    /// The handler runs on this thread, from inside `process(until:timeout:)` or a call.
    /// Wraps `sd_bus_add_match`; the match lasts as long as the returned token.
    /// - Throws: `DBusError` when the rule is malformed or the bus refuses it.
    package func addMatch(_ rule: String, handler: @escaping (DBusSignal) -> Void) throws -> DBusSubscription {
        let box = SignalBox(handler)
        var slot: OpaquePointer? = nil
        let r = sd_bus_add_match(bus, &slot, rule, { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            let box = Unmanaged<SignalBox>.fromOpaque(userdata).takeUnretainedValue()
            guard let args = try? DBusMessageCoding.readAll(from: message) else { return 0 }
            box.handler(DBusSignal(message: message, arguments: args))
            return 0
        }, Unmanaged.passUnretained(box).toOpaque())
        guard r >= 0, let slot else { throw DBusError(code: r, during: "adding match \(rule)") }
        return DBusSubscription(connection: self, slot: slot, box: box)
    }

    // MARK: Exported objects

    /// Exports an object: every method call to `path` goes to `handler`, which answers it.
    /// Wraps `sd_bus_add_object` (one callback dispatching by member, no vtable).
    /// - Throws: `DBusError` when the path is invalid or already taken.
    package func exportObject(path: String, handler: @escaping (DBusMethodCall) -> DBusMethodReply) throws -> DBusSubscription {
        let box = ObjectBox(handler)
        var slot: OpaquePointer? = nil
        let r = sd_bus_add_object(bus, &slot, path, { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            let box = Unmanaged<ObjectBox>.fromOpaque(userdata).takeUnretainedValue()
            let call = DBusMethodCall(message: message, arguments: (try? DBusMessageCoding.readAll(from: message)) ?? [])
            switch box.handler(call) {
            case .notHandled:
                return 0
            case .success(let values):
                var reply: OpaquePointer? = nil
                guard sd_bus_message_new_method_return(message, &reply) >= 0, let reply else { return -ENOMEM }
                defer { sd_bus_message_unref(reply) }
                if (try? DBusMessageCoding.append(values, to: reply)) == nil { return -EINVAL }
                let r = sd_bus_send(sd_bus_message_get_bus(message), reply, nil)
                return r < 0 ? r : 1
            case .error(let name, let text):
                var error = sd_bus_error()
                sd_bus_error_set(&error, name, text)
                defer { sd_bus_error_free(&error) }
                let r = sd_bus_reply_method_error(message, &error)
                return r < 0 ? r : 1
            }
        }, Unmanaged.passUnretained(box).toOpaque())
        guard r >= 0, let slot else { throw DBusError(code: r, during: "exporting \(path)") }
        return DBusSubscription(connection: self, slot: slot, box: box)
    }

    // MARK: Event loop

    /// Runs the event loop until `done()` is true or `timeout` passes (`sd_bus_process`, then a
    /// wait on the bus's descriptor). Returns whether `done()` became true.
    /// - Throws: `DBusError` when the connection fails (e.g. the bus went away).
    @discardableResult
    package func process(until done: () -> Bool, timeout: Duration) throws -> Bool {
        try process(until: done, timeout: timeout, orReadable: [])
    }

    /// Runs the event loop like `process(until:timeout:)`, and also returns as soon as one of
    /// `descriptors` is readable (or in error): one `poll(2)` over the bus's descriptor (the events
    /// `sd_bus_get_events` asks for, with `sd_bus_get_timeout`'s deadline) and those descriptors, so
    /// a loop can wait on the bus and, say, an inotify or eventfd descriptor without waking
    /// periodically. The caller reads the descriptors. Returns whether `done()` became true or a
    /// descriptor is readable.
    /// - Throws: `DBusError` when the connection fails.
    @discardableResult
    package func process(until done: () -> Bool, timeout: Duration, orReadable descriptors: [Int32]) throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            if done() { return true }
            let r = sd_bus_process(bus, nil)
            if r < 0 { throw DBusError(code: r, during: "processing the bus") }
            if r > 0 { continue }
            let now = clock.now
            if now >= deadline { return done() }
            let busFD = sd_bus_get_fd(bus)
            if busFD < 0 { throw DBusError(code: busFD, during: "getting the bus descriptor") }
            let events = sd_bus_get_events(bus)
            if events < 0 { throw DBusError(code: events, during: "getting the bus events") }
            var waitMicroseconds = Self.microseconds(deadline - now)
            var busDeadline: UInt64 = 0
            if sd_bus_get_timeout(bus, &busDeadline) >= 0, busDeadline != UInt64.max {
                // An absolute CLOCK_MONOTONIC time in µs (0: dispatch now).
                var ts = timespec()
                clock_gettime(CLOCK_MONOTONIC, &ts)
                let nowMicroseconds = UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1_000
                waitMicroseconds = min(waitMicroseconds, busDeadline > nowMicroseconds ? busDeadline - nowMicroseconds : 0)
            }
            var fds = [pollfd(fd: busFD, events: Int16(truncatingIfNeeded: events), revents: 0)]
            fds += descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let milliseconds = Int32(min(UInt64(Int32.max), (waitMicroseconds + 999) / 1_000))
            let w = poll(&fds, nfds_t(fds.count), milliseconds)
            if w < 0 && errno != EINTR { throw DBusError(code: -errno, during: "waiting on the bus") }
            if w > 0 && fds.dropFirst().contains(where: { $0.revents != 0 }) { return true }
        }
    }

    // MARK: Helpers

    package static let propertiesInterface = "org.freedesktop.DBus.Properties"

    static func microseconds(_ d: Duration) -> UInt64 {
        let c = d.components
        guard c.seconds >= 0 else { return 0 }
        return UInt64(c.seconds) * 1_000_000 + UInt64(c.attoseconds / 1_000_000_000_000)
    }

    fileprivate func unref(slot: OpaquePointer) {
        sd_bus_slot_unref(slot)
    }
}

/// A match or an exported object; removed from the bus when released (or `cancel()`ed).
package final class DBusSubscription {
    private let connection: DBusConnection
    private var slot: OpaquePointer?
    private let box: AnyObject

    fileprivate init(connection: DBusConnection, slot: OpaquePointer, box: AnyObject) {
        self.connection = connection
        self.slot = slot
        self.box = box
    }

    /// Removes the match / object now. Wraps `sd_bus_slot_unref`.
    package func cancel() {
        if let slot { connection.unref(slot: slot) }
        slot = nil
    }

    deinit { cancel() }
}

private final class PendingCall {
    var result: Result<[DBusValue], DBusError>?

    func complete(with reply: OpaquePointer?) {
        guard let reply else {
            result = .failure(DBusError(name: DBusError.noReplyName, message: "no reply"))
            return
        }
        result = DBusConnection.result(of: reply)
    }
}

extension DBusConnection {
    /// A reply's arguments, or the error it carries under its own D-Bus name
    /// (`org.freedesktop.DBus.Error.Failed` when the peer gave none).
    static func result(of reply: OpaquePointer) -> Result<[DBusValue], DBusError> {
        if sd_bus_message_is_method_error(reply, nil) != 0 {
            let e = sd_bus_message_get_error(reply)
            let name = e?.pointee.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
            let text = e?.pointee.message.map { String(cString: $0) } ?? ""
            return .failure(DBusError(name: name, message: text))
        }
        do {
            return .success(try DBusMessageCoding.readAll(from: reply))
        } catch let e as DBusError {
            return .failure(e)
        } catch {
            return .failure(DBusError(name: "org.freedesktop.DBus.Error.Failed", message: "\(error)"))
        }
    }
}

private final class SignalBox {
    let handler: (DBusSignal) -> Void
    init(_ handler: @escaping (DBusSignal) -> Void) { self.handler = handler }
}

private final class ObjectBox {
    let handler: (DBusMethodCall) -> DBusMethodReply
    init(_ handler: @escaping (DBusMethodCall) -> DBusMethodReply) { self.handler = handler }
}
