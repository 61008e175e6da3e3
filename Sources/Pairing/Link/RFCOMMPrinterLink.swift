import Glibc
import ZebraPrinter

/// A Zebra printer over Bluetooth Classic SPP: an RFCOMM stream socket to channel 1
/// (docs/zebra.md §2). Every socket call of the project's Classic link is in this file.
public final class RFCOMMPrinterLink: PrinterLink {
    private var fd: Int32
    private var buffer: [UInt8] = []

    static let afBluetooth: Int32 = 31   // AF_BLUETOOTH
    static let btprotoRFCOMM: Int32 = 3  // BTPROTO_RFCOMM

    /// Opens and connects the socket. Wraps `socket(AF_BLUETOOTH, SOCK_STREAM, BTPROTO_RFCOMM)`
    /// and `connect`.
    /// - Throws: `PairingError.noBluetoothSupport` when the kernel has no AF_BLUETOOTH
    ///   (EAFNOSUPPORT), `.linkFailed` for any other socket error.
    public init(address: MACAddress, channel: UInt8 = 1) throws {
        let s = socket(Self.afBluetooth, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), Self.btprotoRFCOMM)
        guard s >= 0 else {
            let e = errno
            if e == EAFNOSUPPORT || e == EPROTONOSUPPORT { throw PairingError.noBluetoothSupport }
            throw PairingError.linkFailed(operation: "socket", errno: e)
        }
        // struct sockaddr_rc { sa_family_t rc_family; bdaddr_t rc_bdaddr; uint8_t rc_channel; }:
        // 2 + 6 + 1 bytes, padded to 10; bdaddr_t holds the address least significant byte first.
        var addr = [UInt8](repeating: 0, count: 10)
        addr[0] = UInt8(Self.afBluetooth & 0xFF)
        addr[1] = UInt8(Self.afBluetooth >> 8)
        for (i, b) in address.bytes.reversed().enumerated() { addr[2 + i] = b }
        addr[8] = channel
        let r = addr.withUnsafeBytes { raw in
            Glibc.connect(s, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        guard r == 0 else {
            let e = errno
            Glibc.close(s)
            throw PairingError.linkFailed(operation: "connect to \(address) channel \(channel)", errno: e)
        }
        fd = s
    }

    public func send(_ bytes: [UInt8]) throws {
        guard fd >= 0 else { throw PairingError.linkClosed }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE || errno == ECONNRESET { throw PairingError.linkClosed }
                throw PairingError.linkFailed(operation: "send", errno: errno)
            }
            offset += n
        }
    }

    public func receive(until isComplete: ([UInt8]) -> Bool, timeout: Duration) throws -> [UInt8] {
        guard fd >= 0 else { throw PairingError.linkClosed }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while !isComplete(buffer) {
            let left = deadline - clock.now
            guard left > .zero else { throw PairingError.replyTimeout(received: buffer.count) }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            let r = poll(&p, 1, ms)
            if r < 0 {
                if errno == EINTR { continue }
                throw PairingError.linkFailed(operation: "poll", errno: errno)
            }
            if r == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 1024)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw PairingError.linkFailed(operation: "recv", errno: errno)
            }
            if n == 0 { throw PairingError.linkClosed }
            buffer += chunk[0..<n]
        }
        defer { buffer = [] }
        return buffer
    }

    public func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    deinit { close() }
}
