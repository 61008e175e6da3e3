import NDEF
import Testing
@testable import TagEmulation

@Suite("PN532 host-link frames")
struct LibNFCPN532FrameTests {
    /// (payload, frame) pairs: the same vectors drive encode and decode.
    static let vectors: [(tfi: UInt8, payload: String, frame: String)] = [
        // SAMConfiguration 14 01, as libnfc sends it.
        (0xD4, "14 01", "00 00 FF 03 FD D4 14 01 17 00"),
        // GetFirmwareVersion answer: PN532 v1.6, A/B/18092.
        (0xD5, "03 32 01 06 07", "00 00 FF 06 FA D5 03 32 01 06 07 E8 00"),
        // InListPassiveTarget 1 target 106 A.
        (0xD4, "4A 01 00", "00 00 FF 04 FC D4 4A 01 00 E1 00"),
        // InDataExchange READ page 4.
        (0xD4, "40 01 30 04", "00 00 FF 05 FB D4 40 01 30 04 B7 00"),
    ]

    @Test(arguments: vectors)
    func encodes(vector: (tfi: UInt8, payload: String, frame: String)) throws {
        let payload = try #require([UInt8](hex: vector.payload))
        #expect(PN532Frame.encode(tfi: vector.tfi, payload).hexString(separator: " ") == vector.frame)
    }

    @Test(arguments: vectors)
    func decodes(vector: (tfi: UInt8, payload: String, frame: String)) throws {
        var decoder = PN532FrameDecoder()
        decoder.append(try #require([UInt8](hex: vector.frame)))
        #expect(decoder.next() == .information(tfi: vector.tfi, payload: try #require([UInt8](hex: vector.payload))))
        #expect(decoder.next() == nil)
        #expect(decoder.pendingCount == 0)
    }

    @Test func extendedFramesAboveTwoHundredFiftyFourBytes() {
        let payload = [0x41, 0x00] + (0..<258).map { UInt8(truncatingIfNeeded: $0) }
        let frame = PN532Frame.encode(tfi: 0xD5, payload)
        // 00 00 FF | FF FF | LENm LENl = 0x0105 (TFI + 260) | LCS = −(01+05) = FA
        #expect(Array(frame.prefix(9)) == [0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x01, 0x05, 0xFA, 0xD5])
        #expect(frame.count == 3 + 2 + 3 + 1 + payload.count + 2)
        #expect(frame.last == 0x00)
        #expect((frame[8..<(frame.count - 1)]).reduce(0, &+) == 0)  // DCS balances TFI + data
        var decoder = PN532FrameDecoder()
        decoder.append(frame)
        #expect(decoder.next() == .information(tfi: 0xD5, payload: payload))
        // 254 bytes of payload still fit a normal frame (LEN = 255).
        #expect(PN532Frame.encode(tfi: 0xD5, [UInt8](repeating: 1, count: 254))[3] == 0xFF)
        #expect(PN532Frame.encode(tfi: 0xD5, [UInt8](repeating: 1, count: 254))[4] == 0x01)
    }

    @Test func ackNackAndTheWakeUpPreamble() throws {
        var decoder = PN532FrameDecoder()
        // libnfc's HSU wake-up (55 55 then zeros) precedes the first command.
        decoder.append([0x55, 0x55] + [UInt8](repeating: 0, count: 14))
        #expect(decoder.next() == nil)
        decoder.append(try #require([UInt8](hex: "00 00 FF 03 FD D4 14 01 17 00")))
        #expect(decoder.next() == .information(tfi: 0xD4, payload: [0x14, 0x01]))
        decoder.append(PN532Frame.ack)
        #expect(decoder.next() == .ack)
        decoder.append(PN532Frame.nack)
        #expect(decoder.next() == .nack)
        #expect(decoder.next() == nil)
    }

    @Test func splitReadsReassembleAtEveryByteBoundary() throws {
        let stream = try #require([UInt8](hex: "00 00 FF 05 FB D4 40 01 30 04 B7 00")) + PN532Frame.ack
            + PN532Frame.encode(tfi: 0xD4, [0x02])
        for cut in 0...stream.count {
            var decoder = PN532FrameDecoder()
            var events: [PN532LinkEvent] = []
            decoder.append(stream[..<cut])
            while let e = decoder.next() { events.append(e) }
            decoder.append(stream[cut...])
            while let e = decoder.next() { events.append(e) }
            #expect(events == [.information(tfi: 0xD4, payload: [0x40, 0x01, 0x30, 0x04]), .ack,
                               .information(tfi: 0xD4, payload: [0x02])], "cut at \(cut)")
        }
        // One byte at a time.
        var decoder = PN532FrameDecoder()
        var events: [PN532LinkEvent] = []
        for byte in stream {
            decoder.append([byte])
            while let e = decoder.next() { events.append(e) }
        }
        #expect(events.count == 3)
    }

    @Test func corruptChecksumsAreRejectedAndTheStreamResynchronises() throws {
        var decoder = PN532FrameDecoder()
        // Wrong LCS (FC instead of FD).
        decoder.append(try #require([UInt8](hex: "00 00 FF 03 FC D4 14 01 17 00")))
        #expect(decoder.next() == .corrupt("length checksum mismatch"))
        // Wrong DCS (18 instead of 17).
        decoder.append(try #require([UInt8](hex: "00 00 FF 03 FD D4 14 01 18 00")))
        var sawDataError = false
        while let e = decoder.next() { if e == .corrupt("data checksum mismatch") { sawDataError = true } }
        #expect(sawDataError)
        // Wrong extended LCS.
        decoder.append(try #require([UInt8](hex: "00 00 FF FF FF 01 03 FD D5")))
        #expect(decoder.next() == .corrupt("extended length checksum mismatch"))
        // A good frame afterwards still decodes.
        decoder.append(PN532Frame.encode(tfi: 0xD4, [0x02]))
        var last: PN532LinkEvent?
        while let e = decoder.next() { last = e }
        #expect(last == .information(tfi: 0xD4, payload: [0x02]))
    }

    @Test func hostileLengthsNeverTrap() {
        var decoder = PN532FrameDecoder()
        // An extended frame announcing 65535 bytes that never come: waits, does not trap.
        decoder.append([0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02, 0xD4, 0x01])
        #expect(decoder.next() == nil)
        // LEN 00 with a matching LCS is an ACK; LEN 01 LCS FF an empty-data frame (TFI only).
        var other = PN532FrameDecoder()
        other.append([0x00, 0x00, 0xFF, 0x01, 0xFF, 0xD4, 0x2C, 0x00])
        #expect(other.next() == .information(tfi: 0xD4, payload: []))
    }
}
