/// Why a `VPCDCard` could not reach vpcd.
public enum VPCDError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing listens on the port: pcscd is not running or has no vpcd reader there.
    case connectFailed(host: String, port: UInt16, errno: Int32)
    /// The host is not an IPv4 or IPv6 address literal.
    case badAddress(String)

    public var description: String {
        switch self {
        case let .connectFailed(host, port, errno):
            return "cannot connect to vpcd at \(host):\(port) (errno \(errno)): is pcscd running with vsmartcard-vpcd?"
        case let .badAddress(host):
            return "\(host) is not an IP address"
        }
    }
}
