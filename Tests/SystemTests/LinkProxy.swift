import Foundation
import Synchronization

/// A TCP relay on 127.0.0.1 between the forwarder and the broker that a test can cut: every
/// connection through it is closed at once (a network cut as the station sees it), and new ones
/// are refused for a while.
final class LinkProxy: Sendable {
    private struct State {
        var connections: [Int32] = []
        var refuseUntil = Date.distantPast
        var stopped = false
    }

    let port: UInt16
    private let target: UInt16
    private let listener: Int32
    private let state = Mutex(State())

    init(to target: UInt16) throws {
        self.target = target
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        self.listener = listener
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// Closes every relayed connection now; refuses new ones for `seconds`.
    func cut(refusingFor seconds: Double) {
        state.withLock {
            $0.refuseUntil = Date().addingTimeInterval(seconds)
            for fd in $0.connections { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    func stop() {
        state.withLock { $0.stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        cut(refusingFor: 0)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if state.withLock({ $0.stopped }) { return }
                continue
            }
            let refuse = state.withLock { Date() < $0.refuseUntil || $0.stopped }
            if refuse {
                close(client)
                continue
            }
            let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: target)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else {
                close(client)
                close(upstream)
                continue
            }
            state.withLock { $0.connections += [client, upstream] }
            let done = DispatchGroup()
            for (from, to) in [(client, upstream), (upstream, client)] {
                done.enter()
                Thread.detachNewThread {
                    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
                    while true {
                        let n = buffer.withUnsafeMutableBytes { read(from, $0.baseAddress, $0.count) }
                        if n <= 0 { break }
                        var sent = 0
                        while sent < n {
                            let m = buffer.withUnsafeBytes { write(to, $0.baseAddress! + sent, n - sent) }
                            if m <= 0 { break }
                            sent += m
                        }
                        if sent < n { break }
                    }
                    shutdown(from, Int32(SHUT_RDWR))
                    shutdown(to, Int32(SHUT_RDWR))
                    done.leave()
                }
            }
            Thread.detachNewThread { [self] in
                done.wait()
                state.withLock { $0.connections.removeAll { $0 == client || $0 == upstream } }
                close(client)
                close(upstream)
            }
        }
    }
}
