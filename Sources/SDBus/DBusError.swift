import Glibc

/// A D-Bus failure. Errors from the peer keep their name (`org.bluez.Error.AuthenticationFailed`);
/// local sd-bus failures carry the negative errno sd-bus returned, under a `System.Error.*` name
/// (the names sd-bus itself uses for errno values).
package struct DBusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The D-Bus error name.
    package var name: String
    /// The human text the peer (or strerror) gave.
    package var message: String
    /// The errno when the failure is local (connect, marshal, wait).
    package var errno: Int32?

    package init(name: String, message: String, errno: Int32? = nil) {
        self.name = name
        self.message = message
        self.errno = errno
    }

    /// From a negative return value of an sd-bus function.
    package init(code: Int32, during operation: String) {
        let e = code < 0 ? -code : code
        self.name = "System.Error." + (DBusError.errnoNames[e] ?? "E\(e)")
        self.message = "\(operation): " + String(cString: strerror(e))
        self.errno = e
    }

    /// `org.freedesktop.DBus.Error.NoReply`: what sd-bus reports when a call times out.
    package static let noReplyName = "org.freedesktop.DBus.Error.NoReply"
    package static let timeoutName = "org.freedesktop.DBus.Error.Timeout"
    /// A call the caller gave up (`DBusConnection.call`'s `cancelDescriptor`); not sent by any peer.
    package static let cancelledName = "org.nfctap.Error.Cancelled"

    /// True when the peer did not answer in time.
    package var isTimeout: Bool {
        name == DBusError.noReplyName || name == DBusError.timeoutName || errno == ETIMEDOUT
    }

    package var description: String { "\(name): \(message)" }

    private static let errnoNames: [Int32: String] = [
        EPERM: "EPERM", ENOENT: "ENOENT", EIO: "EIO", EBADF: "EBADF", ENOMEM: "ENOMEM", EACCES: "EACCES",
        EINVAL: "EINVAL", ENXIO: "ENXIO", EPIPE: "EPIPE", ETIMEDOUT: "ETIMEDOUT", ECONNREFUSED: "ECONNREFUSED",
        ECONNRESET: "ECONNRESET", ENOTCONN: "ENOTCONN", EAFNOSUPPORT: "EAFNOSUPPORT", EBUSY: "EBUSY",
        EEXIST: "EEXIST", ENOTSUP: "ENOTSUP", EHOSTDOWN: "EHOSTDOWN",
    ]
}
