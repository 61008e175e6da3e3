#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// One TCP connection to vpcd and its framing: every message, both ways, is a 2-byte
/// big-endian length then the payload (docs/tags-and-readers.md §5).
/// The owning thread closes, sends and receives; others only call `shutdownBoth()` (shutdown(2) is
/// safe from any thread).
final class VPCDSocket: Sendable {
    let fd: Int32
    private let closed = Atomic(false)

    private init(fd: Int32) { self.fd = fd }

    deinit { close() }

    /// Closes the connection now (vpcd sees the card removed). Idempotent; call it from the
    /// thread that owns the socket.
    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = Glibc.close(fd)
    }

    /// Connects to `host:port` (an address literal; only loopback is used by the project).
    /// - Throws: `VPCDError.badAddress`, `VPCDError.connectFailed`.
    static func connect(host: String, port: UInt16) throws -> VPCDSocket {
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let family: Int32
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            family = AF_INET
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            family = AF_INET6
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
        } else {
            throw VPCDError.badAddress(host)
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw VPCDError.connectFailed(host: host, port: port, errno: errno) }
        let sock = VPCDSocket(fd: fd)
        let rc: Int32
        if family == AF_INET {
            rc = withUnsafePointer(to: &v4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        } else {
            rc = withUnsafePointer(to: &v6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
        guard rc == 0 else { throw VPCDError.connectFailed(host: host, port: port, errno: errno) }
        // One small message per exchange: send it at once.
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return sock
    }

    /// Reads one framed message; nil when the peer closed the connection or on an error.
    func receive() -> [UInt8]? {
        guard let header = read(count: 2) else { return nil }
        let length = Int(header[0]) << 8 | Int(header[1])
        return read(count: length)
    }

    /// vpcd writes a message's length and its payload separately; with Nagle on its side, the
    /// payload waits for our ACK of the length, which Linux delays up to 40 ms. TCP_QUICKACK (not
    /// sticky: the kernel may drop back to delayed ACKs) is set again around every read.
    private func quickAck() {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_QUICKACK, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Sends one framed message (length + payload in one write). False on a closed connection.
    /// - Precondition: the caller keeps payloads within 65535 bytes (`send` truncates nothing: it refuses).
    func send(_ payload: [UInt8]) -> Bool {
        guard payload.count <= 0xFFFF else { return false }
        let frame = [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
        var sent = 0
        while sent < frame.count {
            let n = frame.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, frame.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    private func read(count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            quickAck()
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + got, count - got, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            got += n
        }
        return buffer
    }

    /// Unblocks a `receive` on another thread (it then returns nil).
    func shutdownBoth() {
        _ = shutdown(fd, Int32(SHUT_RDWR))
    }
}
