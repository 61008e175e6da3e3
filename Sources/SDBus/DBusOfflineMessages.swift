import CSDBus
import Glibc

/// Messages without a bus daemon: the codec and the reply mapping checked in-process.
///
/// sd-bus only builds messages on a started connection, so this one is started on one end of a
/// socket pair whose other end never answers (it stays in the authentication phase and never
/// sends anything). Messages are sealed as if sent, then read back from the start.
/// Not thread-safe, like `DBusConnection`.
package final class DBusOfflineMessages {
    private let bus: OpaquePointer
    private let peer: Int32
    private var cookie: UInt64 = 0

    /// - Throws: `DBusError` when the socket pair or the connection cannot be made.
    package init() throws {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw DBusError(code: -errno, during: "creating a socket pair")
        }
        var bus: OpaquePointer? = nil
        var r = sd_bus_new(&bus)
        guard r >= 0, let bus else {
            close(fds[0])
            close(fds[1])
            throw DBusError(code: r, during: "creating a bus connection")
        }
        r = sd_bus_set_fd(bus, fds[0], fds[0])
        if r >= 0 { r = sd_bus_start(bus) }
        if r < 0 {
            sd_bus_unref(bus)
            close(fds[0])
            close(fds[1])
            throw DBusError(code: r, during: "starting an offline connection")
        }
        self.bus = bus
        self.peer = fds[1]
    }

    deinit {
        sd_bus_close_unref(bus)   // closes fds[0], which sd-bus owns now
        close(peer)
    }

    /// Marshals `values` into a method call, seals it and reads them back.
    /// Returns the signature sd-bus recorded for the body and the values read.
    /// - Throws: `DBusError` from marshalling (e.g. an array element of another type) or reading.
    package func roundTrip(_ values: [DBusValue]) throws -> (signature: String, values: [DBusValue]) {
        let m = try methodCall()
        defer { sd_bus_message_unref(m) }
        try DBusMessageCoding.append(values, to: m)
        try seal(m)
        let signature = sd_bus_message_get_signature(m, 1).map { String(cString: $0) } ?? ""
        let back = try DBusMessageCoding.readAll(from: m)
        return (signature, back)
    }

    /// What a call whose peer answers with error `name` and `message` gets (the mapping
    /// `DBusConnection.call` applies to a reply).
    /// - Throws: `DBusError` when the messages cannot be built.
    package func result(ofErrorReply name: String, message: String) throws -> Result<[DBusValue], DBusError> {
        try result(ofReply: { call in
            var error = sd_bus_error()
            defer { sd_bus_error_free(&error) }
            sd_bus_error_set(&error, name, message)
            var reply: OpaquePointer? = nil
            let r = sd_bus_message_new_method_error(call, &reply, &error)
            guard r >= 0, let reply else { throw DBusError(code: r, during: "building an error reply") }
            return reply
        })
    }

    /// What a call whose peer answers with `values` gets.
    /// - Throws: `DBusError` when the messages cannot be built.
    package func result(ofReturn values: [DBusValue]) throws -> Result<[DBusValue], DBusError> {
        try result(ofReply: { call in
            var reply: OpaquePointer? = nil
            let r = sd_bus_message_new_method_return(call, &reply)
            guard r >= 0, let reply else { throw DBusError(code: r, during: "building a reply") }
            do {
                try DBusMessageCoding.append(values, to: reply)
            } catch {
                sd_bus_message_unref(reply)
                throw error
            }
            return reply
        })
    }

    private func result(ofReply make: (OpaquePointer) throws -> OpaquePointer) throws -> Result<[DBusValue], DBusError> {
        let call = try methodCall()
        defer { sd_bus_message_unref(call) }
        try seal(call)
        let reply = try make(call)
        defer { sd_bus_message_unref(reply) }
        try seal(reply)
        return DBusConnection.result(of: reply)
    }

    private func methodCall() throws -> OpaquePointer {
        var m: OpaquePointer? = nil
        let r = sd_bus_message_new_method_call(bus, &m, "org.example.Peer", "/org/example", "org.example.Test", "Check")
        guard r >= 0, let m else { throw DBusError(code: r, during: "building a message") }
        return m
    }

    /// Seals `m` (as sending would) and rewinds it for reading.
    private func seal(_ m: OpaquePointer) throws {
        cookie += 1
        var r = sd_bus_message_seal(m, cookie, 0)
        if r >= 0 { r = sd_bus_message_rewind(m, 1) }
        if r < 0 { throw DBusError(code: r, during: "sealing a message") }
    }
}
