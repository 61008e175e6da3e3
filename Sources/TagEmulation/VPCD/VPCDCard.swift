import Foundation
import ReaderCore
import Synchronization

/// A virtual card for vsmartcard's vpcd reader driver: a TCP client of the vpcd socket that pcscd
/// opens (127.0.0.1:35963 for `Virtual PCD 00 00`, 35964 for `00 01`).
///
/// Connecting inserts the card, closing removes it. Once connected, the client answers on its own
/// thread: controls `00` power off, `01` power on, `02` reset (no reply to these), `04` get ATR
/// (reply: the ATR; pcscd asks about every 400 ms), and every other message is a C-APDU answered
/// with the behaviour's data + SW (docs/tags-and-readers.md §5).
///
/// Reconnection: while inserted, if vpcd closes the connection (pcscd stopped or restarted) the
/// client tries again every 100 ms, so the card is back in its reader when pcscd is — like a card
/// left in a physical reader. When the behaviour answers nil (no ATR, no reply) the card has left
/// the field: the client closes and stays out until the next `insert()`.
public final class VPCDCard: Sendable {
    /// vpcd's first port; reader `00 01` is on the next one.
    public static let defaultPort: UInt16 = 35963

    public var behaviour: VPCDCardBehaviour { client.behaviour }
    public var host: String { client.host }
    public var port: UInt16 { client.port }

    /// The connection and its thread. The thread retains the client, never this handle, so a
    /// card that is dropped without `remove()` is removed by `deinit` instead of reconnecting for ever.
    private let client: VPCDClient

    /// - Parameters:
    ///   - port: vpcd's port; `$NFCTAP_VPCD_PORT` (set by scripts/services/pcscd.sh) or 35963 by default.
    public init(behaviour: VPCDCardBehaviour, host: String = "127.0.0.1", port: UInt16? = nil) {
        client = VPCDClient(behaviour: behaviour, host: host,
                            port: port ?? ProcessInfo.processInfo.environment["NFCTAP_VPCD_PORT"].flatMap(UInt16.init) ?? Self.defaultPort)
    }

    deinit { client.remove() }

    /// True between `insert()` and `remove()` (or the card leaving the field by itself).
    public var isInserted: Bool { client.isInserted }

    /// Inserts the card: connects to vpcd and starts answering. Does nothing when already inserted.
    /// - Throws: `VPCDError.connectFailed` when vpcd is not listening (pcscd not running).
    public func insert() throws { try client.insert() }

    /// Removes the card: closes the connection and returns once the thread has ended.
    public func remove() { client.remove() }

    /// Ends the client (same as `remove()`; `deinit` calls it).
    public func stop() { client.remove() }
}

/// The vpcd connection behind a `VPCDCard`, served on its own thread.
final class VPCDClient: Sendable {
    let behaviour: VPCDCardBehaviour
    let host: String
    let port: UInt16

    private let state = Mutex(State())

    private struct State: WaitableState {
        var wanted = false
        var socket: VPCDSocket?
        var finished = true
        /// Threads waiting for `wanted` or `finished`.
        var waiters = StateWaiters()
    }

    init(behaviour: VPCDCardBehaviour, host: String, port: UInt16) {
        self.behaviour = behaviour
        self.host = host
        self.port = port
    }

    var isInserted: Bool { state.withLock { $0.wanted } }

    func insert() throws {
        if isInserted { return }
        // A previous worker that ended by itself (card left the field) must be fully gone.
        _ = state.wait { $0.finished }

        let first = try VPCDSocket.connect(host: host, port: port)
        state.withLock {
            $0.wanted = true
            $0.finished = false
            $0.socket = first
        }
        let thread = Thread { [self] in run(first) }
        thread.name = "VPCDCard \(host):\(port)"
        thread.start()
    }

    func remove() {
        state.change {
            $0.wanted = false
            $0.socket?.shutdownBoth()
        }
        _ = state.wait { $0.finished }
    }

    // MARK: - The worker thread

    private enum Ending { case peerClosed, cardGone }

    private func run(_ first: VPCDSocket) {
        var current: VPCDSocket? = first
        while true {
            if let sock = current {
                let ending = serve(sock)
                let keepGoing = state.withLock { state in
                    state.socket = nil
                    // Close now (not at deinit: the Thread's closure still references the first socket),
                    // and under the lock so that `remove()` never shuts down a closed, reused descriptor.
                    sock.close()
                    if ending == .cardGone { state.wanted = false }
                    return state.wanted
                }
                current = nil
                if !keepGoing { break }
            }
            // vpcd went away while the card is inserted: retry every 100 ms until remove().
            if state.wait(until: .now() + 0.1, for: { !$0.wanted }) { break }
            guard let sock = try? VPCDSocket.connect(host: host, port: port) else { continue }
            let kept = state.withLock { state in
                guard state.wanted else { return false }
                state.socket = sock
                return true
            }
            guard kept else { break }
            current = sock
        }
        state.change { $0.finished = true }
    }

    /// Answers vpcd until the connection closes (`.peerClosed`) or the card leaves (`.cardGone`).
    private func serve(_ sock: VPCDSocket) -> Ending {
        while let message = sock.receive() {
            if message.count == 1 {
                switch message[0] {
                case 0x00: behaviour.powerOff()
                case 0x01: behaviour.powerOn()
                case 0x02: behaviour.powerOff(); behaviour.powerOn()
                case 0x04:
                    guard let atr = behaviour.atr else { return .cardGone }
                    guard sock.send(atr) else { return .peerClosed }
                default: break  // unknown control: vpcd expects no reply
                }
                continue
            }
            guard !message.isEmpty else { continue }
            guard let reply = behaviour.transmit(message) else { return .cardGone }
            guard sock.send(reply) else { return .peerClosed }
        }
        return .peerClosed
    }
}
