import Testing
import NFCTags
import TagEmulation

@Suite("Type2Tag: the tag leaving and damaged replies during reads")
struct Type2FaultTests {
    static let profiles: [PCSCReaderProfile] = [.acr122u, .identiv, .generic]

    static func reads() -> [(Type2Product, [UInt8])] {
        [(.ntag213, T2.message(137)), (.ntag215, T2.message(492)), (.ntag216, T2.message(300)), (.ntag215, T2.message(20))]
    }

    @Test func leavingAtEveryExchangeIsTagLost() throws {
        for (product, message) in Self.reads() {
            for profile in Self.profiles {
                let clean = try T2.rig(product, ndef: message, profile)
                _ = try clean.type2Tag().readNDEF()
                for k in 0 ..< clean.plan.exchangeCount {
                    let rig = try T2.rig(product, ndef: message, profile)
                    rig.plan.reset(leaveFieldAfter: k)
                    #expect(throws: TagError.tagLost, "\(product) via \(profile), gone after \(k)") {
                        try rig.type2Tag().readNDEF()
                    }
                }
            }
        }
    }

    @Test func damagedRepliesAtEveryExchangeAreTypedErrors() throws {
        let faults: [InjectedFault] = [
            .noReply, .truncate(keep: 0), .truncate(keep: 1), .append([0xAA]), .append([0x90, 0x00]),
            .replace([0x12, 0x34, 0x56]), .replace([0x90, 0x00]), .statusWord(0x63, 0x00), .statusWord(0x6A, 0x81),
        ]
        for (product, message) in Self.reads() where message.count < 400 {
            for profile in Self.profiles {
                let clean = try T2.rig(product, ndef: message, profile)
                _ = try clean.type2Tag().readNDEF()
                for k in 0 ..< clean.plan.exchangeCount {
                    for fault in faults {
                        let rig = try T2.rig(product, ndef: message, profile)
                        rig.plan.reset(faults: [k: fault])
                        let result = Result { () throws(TagError) in try rig.type2Tag().readNDEF() }
                        switch result {
                        case .success(let bytes):
                            // Recovered (GET_VERSION unanswered and re-selected, a refused transparent
                            // session, a READ refused with 63 00 and retried after reconnecting):
                            // the data must be right, never partial or wrong.
                            #expect(bytes == message, "\(product) via \(profile), \(fault) at exchange \(k): data WRONG")
                        case .failure(let error):
                            switch fault {
                            case .noReply: #expect(error == .tagLost)
                            case let .statusWord(sw1, sw2):
                                #expect(error == .status(sw1: sw1, sw2: sw2) || error == .unsupported("GET_VERSION: the reader refused data object 1 of the transparent exchange (\(statusWordText(sw1, sw2)))")
                                        || { if case let .pageRefused(_, a, b) = error { return (a, b) == (sw1, sw2) }; return false }(),
                                        "\(product) via \(profile), \(fault) at exchange \(k): \(error)")
                            default: break
                            }
                        }
                    }
                }
            }
        }
    }

    @Test func shortReadsAreCopedWithOrRefused() throws {
        // A READ cut to 4, 8 or 12 data bytes (SW kept) is a valid short answer: the read goes on
        // and returns the right message. 1-3 bytes cannot cover the page and fail.
        let message = T2.message(60)
        for keep in [4, 8, 12] {
            let rig = try T2.rig(.ntag215, ndef: message, .generic)
            final class Shortening: Transceiver {
                let inner: Transceiver
                let keep: Int
                init(_ inner: Transceiver, keep: Int) { self.inner = inner; self.keep = keep }
                func transceive(_ command: [UInt8]) throws(TagError) -> [UInt8] {
                    let reply = try inner.transceive(command)
                    guard command[1] == 0xB0, reply.count > 2 else { return reply }
                    return Array(reply.prefix(keep)) + reply.suffix(2)
                }
            }
            let link = PseudoAPDUType2Link(transceiver: Shortening(EmulatedPCSCTransceiver(reader: rig.reader), keep: keep), profile: .generic)
            #expect(try Type2Tag(link: link).readNDEF() == message)
            #expect(rig.plan.exchangeCount == (17 * 4 + keep - 1) / keep, "pages 3-19 at \(keep) bytes per READ")
        }
        let rig = try T2.rig(.ntag215, ndef: message, .generic)
        rig.plan.reset(faults: [0: .replace(T2.hex("E1 10 90 00"))])
        #expect(throws: TagError.malformedReply("READ 3 returned 2 bytes, less than a page")) { try rig.type2Tag().readNDEF() }
    }

    @Test func tooLongReadIsRefused() throws {
        let rig = try T2.rig(.ntag213, ndef: T2.message(10), .generic)
        rig.plan.reset(faults: [0: .replace([UInt8](repeating: 0xE1, count: 17) + [0x90, 0x00])])
        #expect(throws: TagError.malformedReply("READ BINARY of page 3 returned 17 bytes, more than 16")) { try rig.type2Tag().readNDEF() }
    }

    @Test func mutedTagThroughTheReaderIsAnError() throws {
        let rig = try T2.rig(.ntag213, ndef: T2.message(10), .generic)
        _ = rig.tag.respond(to: [0x50, 0x00]) // HLTA: the tag is mute
        // READ BINARY answers 63 00; reconnecting (a card reset) wakes the tag and the page is read alone.
        #expect(try rig.type2Tag().readNDEF() == T2.message(10))
        #expect(rig.plan.log.prefix(2) == [T2.hex("FF B0 00 03 10"), T2.hex("FF B0 00 03 04")])
        // Muted again and gone for good: a typed error naming the page.
        let gone = try T2.rig(.ntag213, ndef: T2.message(10), .generic)
        gone.reader.locksUpAfterFailedRead = true
        _ = gone.tag.respond(to: [0x50, 0x00])
        let link = PseudoAPDUType2Link(transceiver: EmulatedPCSCTransceiver(reader: gone.reader), profile: .generic)
        #expect(throws: TagError.pageRefused(page: 3, sw1: 0x63, sw2: 0x00)) { try Type2Tag(link: link).readNDEF() }
    }
}
