import NDEF
@testable import NFCTags
import TagEmulation
import Testing

@Suite("Type 5: NDEF read, write, format and lock against the virtual tags")
struct Type5ProtocolTests {
    @Test func slix2ReadTakesThreeExchanges() throws {
        let link = DirectISO15693Link(T5.slix2())
        let tag = Type5Tag(link: link)
        #expect(try tag.readNDEF() == T5.uriMessage)
        let uid = T5.hex("E0 04 01 08 12 34 56 01").reversed()
        // Get System Info, Read Single Block 0 (CC), Read Multiple Blocks 1…32.
        #expect(link.plan.log == [T5.hex("22 2B") + uid, T5.hex("22 20") + uid + [0x00], T5.hex("22 23") + uid + [0x01, 0x1F]])
        // The details come from what the read learned: no further exchange.
        let info = try tag.inspect()
        #expect(link.plan.exchangeCount == 3)
        #expect(info.product == .icodeSLIX2 && info.blockCount == 80 && info.blockSize == 4)
        #expect(info.capacity == 320 - 4 - 4)
        #expect(try tag.queryNDEFStatus() == (.readWrite, 312))
    }

    @Test func st25dvIsReadBlockByBlock() throws {
        // ST tags refuse Read Multiple across sectors: single reads (docs/tags-and-readers.md §7.7).
        let link = DirectISO15693Link(T5.st25dv())
        let tag = Type5Tag(link: link)
        #expect(try tag.readNDEF() == T5.uriMessage)
        // System Info, block 0, then blocks 1–3 for `03 0A` + 10 bytes.
        #expect(link.plan.exchangeCount == 5)
        #expect(link.plan.log.allSatisfy { $0[1] != 0x23 })
        #expect(tag.product == .st25dv04k)
    }

    @Test func writeIsTearSafeAndReadBack() throws {
        let virtual = T5.slix2()
        let link = DirectISO15693Link(virtual)
        let message = T5.message(40)
        try Type5Tag(link: link).writeNDEF(message)
        #expect(try Type5Tag(link: DirectISO15693Link(virtual)).readNDEF() == message)
        let writes = link.plan.log.filter { $0[1] == 0x21 }
        // Block 1 first with length 0, blocks 2…11 (message + terminator), block 1 with the length.
        #expect(writes.first.map { Array($0[10...]) } == [0x01, 0x03, 0x00, 0x01, 0x08])
        #expect(writes.last.map { Array($0[10...]) } == [0x01, 0x03, 40, 0x01, 0x08])
        #expect(writes.count == 12)
        #expect(writes.allSatisfy { $0[0] == 0x22 }, "no option flag on NXP")
    }

    @Test func aTearAtEveryWriteStepLeavesTheOldTheEmptyOrTheNewMessage() throws {
        let old = T5.uriMessage
        let new = T5.message(30, seed: 3)
        for step in 0 ..< 11 {
            let virtual = T5.slix2(old)
            let plan = FaultPlan()
            // Exchanges 0–2 read (System Info, CC, Read Multiple); 10 writes and the read-back follow.
            plan.reset(leaveFieldAfter: 3 + step)
            #expect(throws: TagError.self) { try Type5Tag(link: DirectISO15693Link(virtual, plan: plan)).writeNDEF(new) }
            let now = try Type5Tag(link: DirectISO15693Link(virtual)).readNDEF()
            #expect(now == old || now.isEmpty || now == new, "step \(step): \(now.hexString)")
        }
    }

    @Test func tiWritesCarryTheOptionFlag() throws {
        let virtual = T5.tagIt()
        let link = DirectISO15693Link(virtual)
        try Type5Tag(link: link).writeNDEF(T5.message(8))
        let writes = link.plan.log.filter { $0[1] == 0x21 }
        #expect(!writes.isEmpty && writes.allSatisfy { $0[0] == 0x62 })
        #expect(try Type5Tag(link: DirectISO15693Link(virtual)).readNDEF() == T5.message(8))
    }

    @Test func stRefusesTheOptionFlagAndNfctapDoesNotSendIt() throws {
        let virtual = T5.st25dv()
        #expect(virtual.respond(to: ISO15693Frame.request(.writeSingleBlock, flags: 0x62, uid: virtual.uid, parameters: [1, 0, 0, 0, 0])) == [0x01, 0x03])
        try Type5Tag(link: DirectISO15693Link(virtual)).writeNDEF(T5.message(20))
        #expect(try Type5Tag(link: DirectISO15693Link(virtual)).readNDEF() == T5.message(20))
    }

    @Test func aLongMessageUsesTheThreeByteLength() throws {
        let virtual = T5.st25dv([])
        let message = T5.message(300)
        try Type5Tag(link: DirectISO15693Link(virtual)).writeNDEF(message)
        #expect(Array(virtual.memory[4 ..< 8]) == [0x03, 0xFF, 0x01, 0x2C])
        #expect(try Type5Tag(link: DirectISO15693Link(virtual)).readNDEF() == message)
        #expect(throws: TagError.messageTooLarge(size: 600, capacity: 504)) {
            try Type5Tag(link: DirectISO15693Link(virtual)).writeNDEF(T5.message(600))
        }
    }

    @Test func formatBlankTagsThenWrite() throws {
        for model in [ISO15693ChipModel.icodeSLIX2, .st25dv04k, .tagItHFIPlus] {
            let virtual = VirtualISO15693Tag(model: model, uid: VirtualISO15693Tag.exampleUID(model))
            let blank = Type5Tag(link: DirectISO15693Link(virtual))
            #expect(try blank.queryNDEFStatus().status == .notSupported)
            try Type5Tag(link: DirectISO15693Link(virtual)).format()
            let mlen = UInt8(model.memorySize / 8)
            let features: UInt8 = model == .st25dv04k ? 0x00 : 0x01
            #expect(Array(virtual.memory[0 ..< 7]) == [0xE1, 0x40, mlen, features, 0x03, 0x00, 0xFE], "\(model.name)")
            #expect(try Type5Tag(link: DirectISO15693Link(virtual)).readNDEF() == [])
            #expect(throws: TagError.self) { try Type5Tag(link: DirectISO15693Link(virtual)).format() }
            try Type5Tag(link: DirectISO15693Link(virtual)).writeNDEF(T5.uriMessage)
            #expect(try Type5Tag(link: DirectISO15693Link(virtual)).readNDEF() == T5.uriMessage)
        }
    }

    @Test func writeLockSetsTheCCAndLocksEveryBlock() throws {
        let virtual = T5.slix2()
        let link = DirectISO15693Link(virtual)
        try Type5Tag(link: link).writeLock()
        #expect(virtual.memory[1] == 0x43)
        #expect(virtual.lockedBlocks == Set(0 ..< 80))
        let again = Type5Tag(link: DirectISO15693Link(virtual))
        #expect(try again.queryNDEFStatus().status == .readOnly)
        #expect(throws: TagError.readOnly) { try again.writeNDEF(T5.uriMessage) }
        #expect(try again.readNDEF() == T5.uriMessage)
        // A locked block refuses a raw write with error 12; locking again is fine (11 counts as done).
        #expect(virtual.respond(to: ISO15693Frame.request(.writeSingleBlock, flags: 0x22, uid: virtual.uid, parameters: [5, 1, 2, 3, 4])) == [0x01, 0x12])
        try again.lockBlock(5)
    }

    @Test func theFlipperSLIX2DumpIsIdentifiedAndNotNDEF() throws {
        let virtual = VirtualISO15693Tag.flipperSLIX2Dump()
        let tag = Type5Tag(link: DirectISO15693Link(virtual))
        #expect(try tag.queryNDEFStatus() == (.notSupported, 0))
        #expect(throws: TagError.self) { try tag.readNDEF() }
        #expect(tag.systemInfo == ISO15693SystemInfo(uid: VirtualISO15693Tag.flipperSLIX2UID, dsfid: 0x01, afi: 0x3D,
                                                     blockSize: 4, blockCount: 80, icReference: 0x01))
        #expect(tag.product == .icodeSLIX2)
        #expect(Array(virtual.memory.prefix(4)) == [0x03, 0x0A, 0x82, 0xED])
        // Its data is not a blank tag's: format refuses and writes nothing.
        #expect(throws: TagError.self) { try Type5Tag(link: DirectISO15693Link(virtual)).format() }
        #expect(virtual.memory == VirtualISO15693Tag.flipperSLIX2Memory)
        #expect(virtual.memory.suffix(4) == [0xE5, 0xFF, 0x00, 0x01])
    }

    @Test func inventoryStayQuietSelectAndReset() {
        let virtual = T5.slix2()
        #expect(virtual.respond(to: ISO15693Frame.inventoryOneSlot) == [0x00, 0x00] + virtual.uid.reversed())
        #expect(virtual.respond(to: ISO15693Frame.request(.stayQuiet, flags: 0x22, uid: virtual.uid)) == nil)
        #expect(virtual.respond(to: ISO15693Frame.inventoryOneSlot) == nil, "quiet tags skip inventory")
        #expect(virtual.respond(to: T5.hex("02 20 00")) == nil, "and unaddressed commands")
        #expect(virtual.respond(to: ISO15693Frame.request(.select, flags: 0x22, uid: virtual.uid)) == [0x00])
        #expect(virtual.respond(to: T5.hex("12 20 00"))?.first == 0x00, "selected: select-flag commands answer")
        #expect(virtual.respond(to: T5.hex("02 26")) == [0x00])
        #expect(virtual.respond(to: T5.hex("12 20 00")) == nil, "back in ready: not selected")
        #expect(virtual.respond(to: T5.hex("02 20 50")) == [0x01, 0x10], "block 80 does not exist")
        #expect(virtual.respond(to: T5.hex("02 A5 04")) == [0x01, 0x01], "unknown custom command")
        #expect(virtual.respond(to: T5.hex("42 20 01"))?.count == 6, "option flag: security status + 4 bytes")
    }

    // MARK: Hostile tags

    @Test func aCCClaimingMoreMemoryThanExistsIsATypedError() {
        // 112-byte ICODE SLI-sized CC … on a tag whose memory is 64 bytes (16 blocks).
        var small = ISO15693ChipModel.tagItHFIPlus
        small.blockCount = 16
        let virtual = VirtualISO15693Tag(model: small, uid: T5.hex("E0 07 00 00 00 00 00 09"), memory: T5.hex("E1 40 0E 01 03 0A") + T5.uriMessage)
        #expect(throws: TagError.invalidTagData("the CC describes 112 bytes; the tag has 16 blocks of 4 (64 bytes)")) {
            try Type5Tag(link: DirectISO15693Link(virtual)).readNDEF()
        }
    }

    @Test("a CC spread over blocks smaller than itself (Get System Info allows 1-byte blocks) is read whole",
          arguments: [1, 2, 3])
    func ccOverSmallBlocks(blockSize: Int) throws {
        var tiny = ISO15693ChipModel.icodeSLIX2
        tiny.blockSize = blockSize
        tiny.blockCount = (80 + blockSize - 1) / blockSize
        for cc in [T5.hex("E1 40 0A 01"), T5.hex("E2 40 00 01 00 00 00 0A")] {
            let message = T5.uriMessage
            let virtual = VirtualISO15693Tag(model: tiny, uid: VirtualISO15693Tag.exampleUID(.icodeSLIX2),
                                             memory: cc + [0x03, UInt8(message.count)] + message + [0xFE])
            #expect(try Type5Tag(link: DirectISO15693Link(virtual)).readNDEF() == message, "\(cc)")
        }
    }

    @Test func aTLVRunningPastTheAreaIsATypedError() {
        let virtual = VirtualISO15693Tag(model: .icodeSLIX2, uid: VirtualISO15693Tag.exampleUID(.icodeSLIX2),
                                         memory: T5.hex("E1 40 28 01 03 FF 01 40"))
        #expect(throws: TagError.self) { try Type5Tag(link: DirectISO15693Link(virtual)).readNDEF() }
    }

    @Test func aBlockSizeMismatchIsATypedError() {
        // The tag says 4-byte blocks; the CC read answers 5 bytes.
        let plan = FaultPlan(faults: [1: .append([0x00])])
        #expect(throws: TagError.malformedReply("block 0 has 5 bytes; the tag reports 4-byte blocks")) {
            try Type5Tag(link: DirectISO15693Link(T5.st25dv(), plan: plan)).readNDEF()
        }
        // A Read Multiple one byte short.
        let short = FaultPlan(faults: [2: .truncate(keep: 100)])
        #expect(throws: TagError.self) { try Type5Tag(link: DirectISO15693Link(T5.slix2(), plan: short)).readNDEF() }
    }

    @Test func errorsMidReadAreTypedAtEveryExchange() {
        for exchange in 0 ..< 5 {
            for fault in [InjectedFault.replace([0x01, 0x0F]), .noReply, .replace([]), .truncate(keep: 1)] {
                let plan = FaultPlan(faults: [exchange: fault])
                let tag = Type5Tag(link: DirectISO15693Link(T5.st25dv(), plan: plan))
                do {
                    let read = try tag.readNDEF()
                    Issue.record("exchange \(exchange) \(fault): read \(read.hexString) despite the fault")
                } catch {
                    if case .replace([0x01, 0x0F]) = fault, exchange > 0 { #expect(error == .iso15693(code: 0x0F)) }
                }
            }
        }
    }
}

/// A reader that passes only Read Single Block, over a tag of 1-byte blocks (fuzz finding: a CC
/// describing more memory than 65,536 such blocks made the read of block 65,536 trap).
private final class OneByteBlockLink: ISO15693Link {
    let uid: [UInt8] = [0xE0, 0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06]
    let passesAnyCommand = false
    let memory: [UInt8]
    private(set) var highestBlock = -1

    init(memory: [UInt8]) { self.memory = memory }

    func transceive(_ frame: [UInt8]) throws(TagError) -> [UInt8] {
        guard frame.count >= 3 else { throw TagError.unsupported("frame \(frame.hexString)") }
        let block: Int
        switch frame[1] {
        case 0x20: block = Int(frame[frame.count - 1])
        case 0x30: block = Int(frame[frame.count - 2]) | Int(frame[frame.count - 1]) << 8
        default: throw TagError.unsupported("command \([frame[1]].hexString)")
        }
        highestBlock = max(highestBlock, block)
        return [0x00, block < memory.count ? memory[block] : 0x00]
    }
}

@Suite struct Type5AddressLimitTests {
    @Test("a CC describing more than 65,536 one-byte blocks is a typed error, not a trap")
    func ccBeyondAddressableBlocks() {
        // 8-byte CC: MLEN FFFF × 8 = 524,280 bytes, with 1-byte blocks; an NDEF TLV that runs on.
        let link = OneByteBlockLink(memory: T5.hex("E2 40 00 01 00 00 FF FF 03 FF FF F0"))
        #expect(throws: TagError.self) { try Type5Tag(link: link).readNDEF() }
        #expect(link.highestBlock < 0x1_0000)
    }

    @Test("a block number beyond 16 bits is refused before any frame is sent")
    func lockBeyondAddressableBlocks() {
        let link = OneByteBlockLink(memory: [])
        #expect(throws: TagError.invalidTagData("block 65536 lies beyond ISO 15693's 16-bit block numbers")) {
            try Type5Tag(link: link).lockBlock(0x1_0000)
        }
        #expect(link.highestBlock == -1)
    }
}
