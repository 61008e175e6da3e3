import NDEF
import NFCTags
import Synchronization
import Testing
@testable import TagEmulation

/// The PN532 command set without a serial line: the exact answers libnfc relies on.
@Suite("PN532 chip commands")
struct LibNFCPN532ChipTests {
    /// A 16-page Type 2 tag: READ wraps, WRITE ACKs, GET_VERSION answers, unknown mutes.
    final class PagesTag: VirtualTag {
        let uid: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
        let atqa: [UInt8] = [0x00, 0x44]
        let sak: UInt8 = 0x00
        let ats: [UInt8]? = nil
        private let state = Mutex((pages: (0..<16).map { p in [UInt8](repeating: UInt8(p), count: 4) }, muted: false))
        var pages: [[UInt8]] { state.withLock { $0.pages } }
        func activate() { state.withLock { $0.muted = false } }
        func respond(to frame: [UInt8]) -> [UInt8]? {
            state.withLock { tag in
                guard !tag.muted else { return nil }
                switch frame.first {
                case 0x30? where frame.count == 2 && frame[1] < 16:
                    return (0..<4).flatMap { tag.pages[(Int(frame[1]) + $0) % 16] }
                case 0xA2? where frame.count == 6 && frame[1] < 16:
                    tag.pages[Int(frame[1])] = Array(frame[2...]); return [0x0A]
                case 0x60? where frame.count == 1:
                    return [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03]
                case 0x30?, 0xA2?:
                    tag.muted = true; return [0x00]
                default:
                    tag.muted = true; return nil
                }
            }
        }
    }

    final class Card: VirtualTag {
        let uid: [UInt8] = [0x08, 0x01, 0x02, 0x03]
        let atqa: [UInt8] = [0x00, 0x04]
        let sak: UInt8 = 0x20
        let ats: [UInt8]? = [0x05, 0x78, 0x80, 0x70, 0x02]
        func activate() {}
        func respond(to frame: [UInt8]) -> [UInt8]? { frame.first == 0x00 ? [0x90, 0x00] : [0x6D, 0x00] }
    }

    func reply(_ chip: PN532Chip, _ hex: String) throws -> String? {
        guard case let .reply(answer) = chip.handle(try #require([UInt8](hex: hex))) else { return nil }
        return answer.hexString(separator: " ")
    }

    @Test func openSequenceAnswers() throws {
        let chip = PN532Chip(tag: nil, plan: FaultPlan())
        #expect(try reply(chip, "14 01") == "15")
        #expect(try reply(chip, "00 00 6C 69 62 6E 66 63") == "01 00 6C 69 62 6E 66 63")  // echo "libnfc"
        #expect(try reply(chip, "02") == "03 32 01 06 07")
        #expect(try reply(chip, "12 14") == "13")
        #expect(try reply(chip, "32 05 FF FF FF") == "33")
        #expect(try reply(chip, "16 F0") == "17 00")
        #expect(chip.handle([0x8C]) == .syntaxError)        // TgInitAsTarget: not emulated
        #expect(chip.handle([]) == .syntaxError)
        #expect(chip.handle([0x06, 0x63]) == .syntaxError)  // half a register address
    }

    @Test func registersRememberValuesAndTrackCRCHandling() throws {
        let chip = PN532Chip(tag: nil, plan: FaultPlan())
        #expect(try reply(chip, "06 63 02 63 03 63 3D") == "07 80 80 00")
        #expect(!chip.hostAppendsCRC && !chip.hostChecksCRC)
        #expect(try reply(chip, "08 63 02 00 63 03 00 63 3D 07") == "09")
        #expect(chip.hostAppendsCRC && chip.hostChecksCRC)
        #expect(try reply(chip, "06 63 02 63 03 63 3D") == "07 00 00 07")
    }

    @Test func listPassiveTargetReportsTheTagOrNothing() throws {
        let plan = FaultPlan()
        let chip = PN532Chip(tag: PagesTag(), plan: plan)
        #expect(try reply(chip, "4A 01 00") == "4B 01 01 00 44 00 07 04 11 22 33 44 55 66")
        // Another baud rate / type: nothing. A UID that is not this tag's: nothing.
        #expect(try reply(chip, "4A 01 01 00 FF FF 01 00") == "4B 00")
        #expect(try reply(chip, "4A 01 00 04 99 99 99 99 99 99") == "4B 00")
        chip.setTag(nil)
        #expect(try reply(chip, "4A 01 00") == "4B 00")
        #expect(plan.log.isEmpty)  // anticollision is not a tag exchange
    }

    @Test func isoDEPTargetIncludesTheATSOnlyWithAutomaticRATS() throws {
        let chip = PN532Chip(tag: Card(), plan: FaultPlan())
        #expect(try reply(chip, "4A 01 00") == "4B 01 01 00 04 20 04 08 01 02 03")
        #expect(try reply(chip, "12 14") == "13")
        #expect(try reply(chip, "4A 01 00") == "4B 01 01 00 04 20 04 08 01 02 03 05 78 80 70 02")
        #expect(try reply(chip, "40 01 00 A4 04 00 00") == "41 00 90 00")
        // libnfc's ISO-DEP presence check: R(NAK) raw → R(ACK).
        #expect(try reply(chip, "42 B2")?.hasPrefix("43 00 A") == true)
    }

    @Test func dataExchangeThroughThePlan() throws {
        let tag = PagesTag()
        let plan = FaultPlan()
        let chip = PN532Chip(tag: tag, plan: plan)
        // Nothing selected yet: not acceptable.
        #expect(try reply(chip, "40 01 30 00") == "41 27")
        _ = chip.handle([0x4A, 0x01, 0x00])
        #expect(try reply(chip, "40 01 30 0E") == "41 00 0E 0E 0E 0E 0F 0F 0F 0F 00 00 00 00 01 01 01 01")
        // WRITE: the 4-bit ACK is consumed (status only); a NAK is an invalid frame.
        #expect(try reply(chip, "40 01 A2 05 01 02 03 04") == "41 00")
        #expect(tag.pages[5] == [1, 2, 3, 4])
        #expect(try reply(chip, "40 01 A2 40 01 02 03 04") == "41 13")
        // The NAK muted the tag: timeout until it is selected again.
        #expect(try reply(chip, "40 01 30 00") == "41 01")
        _ = chip.handle([0x4A, 0x01, 0x00])
        #expect(try reply(chip, "40 01 30 00")?.hasPrefix("41 00 00 00") == true)
        #expect(plan.log == [[0x30, 0x0E], [0xA2, 0x05, 1, 2, 3, 4], [0xA2, 0x40, 1, 2, 3, 4], [0x30, 0x00], [0x30, 0x00]])
        // Leaving the field: status 01 (libnfc: ERFTRANS / ETGRELEASED), never bit 0x80.
        plan.leaveFieldAfter = plan.exchangeCount
        #expect(try reply(chip, "40 01 30 00") == "41 01")
        #expect(try reply(chip, "4A 01 00") == "4B 00")
    }

    @Test func communicateThruWithAndWithoutCRCHandling() throws {
        let chip = PN532Chip(tag: PagesTag(), plan: FaultPlan())
        _ = chip.handle([0x4A, 0x01, 0x00])
        // Chip handles CRC: raw GET_VERSION without CRC bytes.
        #expect(try reply(chip, "42 60") == "43 00 00 04 04 02 01 00 0F 03")
        // Host handles CRC (TxMode/RxMode bit 7 cleared): CRC_A checked, stripped, appended.
        _ = chip.handle([0x08, 0x63, 0x02, 0x00, 0x63, 0x03, 0x00])
        let version = appendingCRCA([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03]).hexString(separator: " ")
        #expect(try reply(chip, "42 60 F8 32") == "43 00 " + version)
        // A wrong CRC_A: the tag ignores the frame.
        #expect(try reply(chip, "42 60 F8 33") == "43 01")
        // A 4-bit ACK carries no CRC.
        #expect(try reply(chip, "42 " + appendingCRCA([0xA2, 0x05, 9, 9, 9, 9]).hexString(separator: " ")) == "43 00 0A")
    }

    @Test func faultPlanFaultsReachTheHost() throws {
        let plan = FaultPlan(faults: [0: .truncate(keep: 3), 1: .noReply])
        let chip = PN532Chip(tag: PagesTag(), plan: plan)
        _ = chip.handle([0x4A, 0x01, 0x00])
        #expect(try reply(chip, "40 01 30 00") == "41 00 00 00 00")
        #expect(try reply(chip, "40 01 30 00") == "41 01")
    }

    @Test func autoPollAnswersAtOnceOrWhenATagComes() throws {
        let chip = PN532Chip(tag: nil, plan: FaultPlan())
        // 1 round of 1 × 150 ms, types: ISO 14443-4A, MIFARE.
        #expect(chip.handle([0x60, 0x01, 0x01, 0x20, 0x10]) == .pending)
        #expect(chip.pollPending() == nil)
        chip.setTag(PagesTag())
        #expect(chip.pollPending()?.hexString(separator: " ") == "61 01 10 0C 01 00 44 00 07 04 11 22 33 44 55 66")
        #expect(!chip.hasPendingPoll)
        // A host ACK aborts a pending poll.
        chip.setTag(nil)
        #expect(chip.handle([0x60, 0xFF, 0x01, 0x10]) == .pending)
        chip.abortPending()
        #expect(!chip.hasPendingPoll)
    }
}
