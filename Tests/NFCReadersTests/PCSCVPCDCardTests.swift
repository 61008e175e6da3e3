import Foundation
import NDEF
import Synchronization
import TagEmulation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The vpcd card client against an in-test vpcd stand-in on 127.0.0.1 (no pcscd): framing,
/// controls, replies and the card leaving the field, byte for byte.
// Serialized: run in parallel these tests fail about 1 time in 5 (a connection closed early;
// seen before and after the VPCDCard/VPCDClient split, cause not found yet).
@Suite(.serialized) struct PCSCVPCDCardTests {
    /// A scripted card that records what it was asked.
    final class Card: VPCDCardBehaviour, Sendable {
        private let state = Mutex((atr: [UInt8]?.some([0x3B, 0x80, 0x80, 0x01, 0x01]), log: [String]()))
        var atr: [UInt8]? {
            state.withLock {
                $0.log.append("atr")
                return $0.atr
            }
        }
        /// The card leaves the field: no ATR from now on.
        func leaveField() { state.withLock { $0.atr = nil } }
        func transmit(_ apdu: [UInt8]) -> [UInt8]? {
            state.withLock { $0.log.append("apdu " + apdu.hexString) }
            return apdu == [0x00, 0xA4] ? [0x90, 0x00] : nil
        }
        func powerOn() { state.withLock { $0.log.append("on") } }
        func powerOff() { state.withLock { $0.log.append("off") } }
        var calls: [String] { state.withLock { $0.log } }
    }

    /// vpcd's side: a listening socket on an ephemeral loopback port, one accepted client.
    final class FakeVPCD {
        let listener: Int32
        let port: UInt16
        var client: Int32 = -1

        init() throws {
            listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            addr.sin_port = 0
            var len = socklen_t(MemoryLayout<sockaddr_in>.size)
            let fd = listener
            let bound = withUnsafeMutablePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p -> Bool in
                    bind(fd, p, len) == 0 && listen(fd, 1) == 0 && getsockname(fd, p, &len) == 0
                }
            }
            try #require(bound)
            port = UInt16(bigEndian: addr.sin_port)
        }

        deinit {
            if client >= 0 { close(client) }
            close(listener)
        }

        func accept() { client = Glibc.accept(listener, nil, nil) }

        func send(_ payload: [UInt8]) {
            let frame = [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
            _ = frame.withUnsafeBytes { Glibc.send(client, $0.baseAddress!, frame.count, Int32(MSG_NOSIGNAL)) }
        }

        /// Reads one framed message; nil when the client closed the connection.
        func receive() -> [UInt8]? {
            guard let header = read(2) else { return nil }
            return read(Int(header[0]) << 8 | Int(header[1]))
        }

        /// Raw bytes as they arrive (to check the framing itself).
        func read(_ count: Int) -> [UInt8]? {
            var buffer = [UInt8](repeating: 0, count: count)
            var got = 0
            while got < count {
                let n = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress! + got, count - got, 0) }
                guard n > 0 else { return nil }
                got += n
            }
            return buffer
        }
    }

    @Test func answersControlsAndAPDUsWithLengthPrefixedFrames() throws {
        let vpcd = try FakeVPCD()
        let card = Card()
        let client = VPCDCard(behaviour: card, port: vpcd.port)
        try client.insert()
        defer { client.stop() }
        vpcd.accept()

        vpcd.send([0x01])          // power on: no reply
        vpcd.send([0x04])          // get ATR
        #expect(vpcd.read(2) == [0x00, 0x05])
        #expect(vpcd.read(5) == [0x3B, 0x80, 0x80, 0x01, 0x01])
        vpcd.send([0x02])          // reset: off + on, no reply
        vpcd.send([0x00, 0xA4])    // a C-APDU
        #expect(vpcd.receive() == [0x90, 0x00])
        vpcd.send([0x00])          // power off
        vpcd.send([0x04])
        #expect(vpcd.receive() == [0x3B, 0x80, 0x80, 0x01, 0x01])
        #expect(card.calls == ["on", "atr", "off", "on", "apdu 00A4", "off", "atr"])
        #expect(client.isInserted)
    }

    @Test func noReplyFromTheCardClosesTheConnection() throws {
        let vpcd = try FakeVPCD()
        let card = Card()
        let client = VPCDCard(behaviour: card, port: vpcd.port)
        try client.insert()
        defer { client.stop() }
        vpcd.accept()
        vpcd.send([0x00, 0xB0, 0x00, 0x00, 0x10])  // the card answers nil: it left the field
        #expect(vpcd.receive() == nil)
        #expect(card.calls == ["apdu 00B0000010"])
    }

    @Test func noATRClosesTheConnectionAndTheCardStaysOut() throws {
        let vpcd = try FakeVPCD()
        let card = Card()
        let client = VPCDCard(behaviour: card, port: vpcd.port)
        try client.insert()
        defer { client.stop() }
        vpcd.accept()
        card.leaveField()
        vpcd.send([0x04])
        #expect(vpcd.receive() == nil)
        client.remove()  // returns at once: the thread has already ended
        #expect(!client.isInserted)
    }

    @Test func removeClosesTheConnection() throws {
        let vpcd = try FakeVPCD()
        let client = VPCDCard(behaviour: Card(), port: vpcd.port)
        try client.insert()
        vpcd.accept()
        client.remove()
        #expect(vpcd.receive() == nil)
        #expect(!client.isInserted)
    }

    @Test func insertWithoutVPCDThrows() throws {
        let vpcd = try FakeVPCD()
        let port = vpcd.port
        close(vpcd.listener)  // nothing listens there any more
        let client = VPCDCard(behaviour: Card(), port: port)
        #expect(throws: VPCDError.self) { try client.insert() }
        #expect(!client.isInserted)
    }
}
