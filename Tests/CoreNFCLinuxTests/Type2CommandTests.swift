@testable import CoreNFCLinux
import NFCTags
import Testing

@Suite("sendMiFareCommand over a Type 2 link")
struct Type2CommandTests {
    private func send(_ hex: String, _ card: FakeCard = ntag()) throws -> [UInt8] {
        try Type2Command.send([UInt8](hex: hex)!, over: FakeType2Link(card: card))
    }

    private func errorCode(_ hex: String, _ card: FakeCard = ntag()) -> NFCReaderError.Code? {
        do {
            _ = try send(hex, card)
            return nil
        } catch let error as NFCReaderError {
            return error.code
        } catch {
            return nil
        }
    }

    @Test("wrong packet lengths are 4, never a trap", arguments: ["", "30", "30 04 00", "3A 04", "A2 04 01 02 03", "60 00"])
    func wrongLength(_ hex: String) {
        #expect(errorCode(hex) == .readerErrorInvalidParameterLength)
    }

    @Test("FAST_READ with start after end is 3")
    func fastReadOrder() {
        #expect(errorCode("3A 06 05") == .readerErrorInvalidParameter)
    }

    @Test("FAST_READ beyond what the reader passes is 1, and nothing is sent")
    func fastReadLimit() throws {
        let card = ntag()
        card.fastReadLimit = 16
        #expect(errorCode("3A 04 08", card) == .readerErrorUnsupportedFeature)  // 20 bytes > 16
        #expect(try send("3A 04 07", card).count == 16)
        #expect(card.type2Log == ["FAST_READ 4-7"])
    }

    @Test("GET_VERSION needs a reader that passes raw commands")
    func getVersion() {
        let card = ntag()
        card.canSendRawCommands = false
        #expect(errorCode("60", card) == .readerErrorUnsupportedFeature)
        #expect(card.type2Log.isEmpty)
    }

    @Test("a NAK from the link surfaces as the tag error")
    func nak() {
        #expect(throws: TagError.nak(0x00)) { try send("30 F0") }
    }

    @Test("replies shaped as iOS: WRITE → the ACK as one byte 0A, READ → 16 bytes; a NAKed WRITE throws")
    func replyShapes() throws {
        let card = ntag()
        #expect(try send("A2 05 DE AD BE EF", card) == [0x0A])
        #expect(card.pages[5] == [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(try send("30 04", card).count == 16)
        #expect(throws: TagError.nak(0x00)) { try send("A2 F0 01 02 03 04", card) }
        #expect(card.type2Log == ["WRITE 5 DEADBEEF", "READ 4", "WRITE 240 01020304"])
    }
}
