import NDEF
import NFCTags
import TagEmulation
import Testing

/// Helpers for the Type 3 / FeliCa suites.
enum T3 {
    static func hex(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
        T2.hex(text, sourceLocation: sourceLocation)
    }

    /// A Type3Tag on an in-process channel to `card`, as a reader hands it over after polling the
    /// wildcard system (the card's first system selected).
    static func connect(_ card: VirtualFeliCaCard, plan: FaultPlan = FaultPlan()) -> (Type3Tag, FaultPlan) {
        let feliCa = FeliCaTag(link: VirtualTagTransceiver(tag: card, plan: plan), idm: card.idm, pmm: card.pmm,
                               systemCode: card.systems[0].code)
        return (Type3Tag(feliCa: feliCa), plan)
    }

    /// A message of `size` bytes: one MIME record padded to the size.
    static func message(size: Int) -> [UInt8] {
        let payload = [UInt8](repeating: 0x41, count: size - 13)
        return try! NDEFMessage(records: [NDEFRecord(tnf: .media, type: Array("text/plain".utf8), payload: payload)]).encoded()
    }

    static let pollNDEF = hex("06 00 12 FC 00 00")
    static let idm = VirtualFeliCaCard.defaultLiteSIDm

    /// Read Without Encryption of `blocks` from service 000B, as Type3Tag sends it.
    static func read(_ blocks: [Int], service: [UInt8] = [0x0B, 0x00]) -> [UInt8] {
        let body = [0x06] + idm + [0x01] + service + [UInt8(blocks.count)] + blocks.flatMap { [0x80, UInt8($0)] }
        return [UInt8(body.count + 1)] + body
    }
}

@Suite("Type 3 attribute block")
struct Type3AttributeBlockTests {
    @Test("nfcpy's documented block: Ver 1.0, Nbr 11, Nbw 10, Nmaxb 393, RW, Ln 14, checksum 00BE both ways")
    func documentedVector() throws {
        let bytes = T3.hex("10 0B 0A 01 89 00 00 00 00 00 01 00 00 0E 00 BE")
        let block = try Type3AttributeBlock(block: bytes)
        #expect(block == Type3AttributeBlock(version: 0x10, nbr: 11, nbw: 10, nmaxb: 393, writeInProgress: false, writable: true, length: 14))
        #expect(block.bytes == bytes)
        #expect(block.capacity == 393 * 16)
    }

    @Test("a checksum mismatch, a wrong size, Nbr 0, an unknown WriteF are invalid data; mapping 2.x is not NDEF")
    func rejects() {
        var bad = T3.hex("10 0B 0A 01 89 00 00 00 00 00 01 00 00 0E 00 BF")
        #expect(throws: TagError.self) { try Type3AttributeBlock(block: bad) }
        #expect(throws: TagError.invalidTagData("attribute block of 15 bytes (16)")) { try Type3AttributeBlock(block: Array(bad.prefix(15))) }
        bad = Type3AttributeBlock(nbr: 0, nbw: 1, nmaxb: 13).bytes
        #expect(throws: TagError.invalidTagData("attribute block allows 0 blocks per read")) { try Type3AttributeBlock(block: bad) }
        var v2 = Type3AttributeBlock(version: 0x20, nbr: 4, nbw: 1, nmaxb: 13).bytes
        #expect(throws: TagError.notNDEFFormatted("Type 3 mapping version 2.0")) { try Type3AttributeBlock(block: v2) }
        v2 = Type3AttributeBlock(nbr: 4, nbw: 1, nmaxb: 13).bytes
        v2[9] = 0x05
        v2[15] &+= 5
        #expect(throws: TagError.invalidTagData("attribute block WriteF 05")) { try Type3AttributeBlock(block: v2) }
    }
}

@Suite("Type 3 NDEF on a virtual FeliCa Lite-S")
struct Type3NDEFTests {
    @Test("read: Polling 12FC, block 0, then Nbr (4) blocks per Read Without Encryption", arguments: [0, 16, 40, 64, 100, 208])
    func readAtTheExchangeMinimum(size: Int) throws {
        let message = size == 0 ? [] : T3.message(size: size)
        let (tag, plan) = T3.connect(.liteS(ndef: message))
        #expect(try tag.readNDEF() == message)
        let blocks = (message.count + 15) / 16
        var expected = [T3.pollNDEF, T3.read([0])]
        for start in stride(from: 1, through: blocks, by: 4) { expected.append(T3.read(Array(start...min(start + 3, blocks)))) }
        #expect(plan.log == expected)
        #expect(plan.exchangeCount == 2 + (blocks + 3) / 4)
    }

    @Test("write: WriteF 0F first, one block per write (Nbw 1), Ln with WriteF 00 last, then a read-back")
    func tearSafeWrite() throws {
        let card = VirtualFeliCaCard.liteS(ndef: T3.message(size: 20))
        let (tag, plan) = T3.connect(card)
        let message = T3.message(size: 70)
        try tag.writeNDEF(message)
        let blocks = 5
        #expect(plan.exchangeCount == 1 + 1 + 1 + blocks + 1 + 1)
        let writes = plan.log.filter { $0[1] == 0x08 }
        #expect(writes.count == blocks + 2)
        let first = try Type3AttributeBlock(block: Array(writes[0].suffix(16)))
        #expect(first.writeInProgress && first.length == 20)
        let last = try Type3AttributeBlock(block: Array(writes[writes.count - 1].suffix(16)))
        #expect(!last.writeInProgress && last.length == 70)
        #expect(plan.log.last == T3.read([0]))
        #expect(try T3.connect(card).0.readNDEF() == message)
        #expect(try tag.queryNDEFStatus() == (.readWrite, 208))
    }

    @Test("a write torn at every step leaves the old message or an interrupted-write error, never other data")
    func tornWrites() throws {
        let old = T3.message(size: 30), new = T3.message(size: 90)
        for step in 0..<10 {
            let card = VirtualFeliCaCard.liteS(ndef: old)
            let (tag, _) = T3.connect(card, plan: FaultPlan(leaveFieldAfter: step))
            #expect(throws: TagError.self) { try tag.writeNDEF(new) }
            let (again, _) = T3.connect(card)
            do {
                let read = try again.readNDEF()
                #expect(read == old, "step \(step)")
            } catch {
                #expect(error == .invalidTagData("a write to this tag was interrupted (WriteF 0F)"), "step \(step)")
            }
        }
    }

    @Test("Nbw 15 and Nbr 255 (what a tag may announce): every frame planned within 252 bytes before WriteF; written and read back")
    func framesWithinTheLimit() throws {
        var model = VirtualFeliCaModel.standardTransit
        model.maxReadBlocks = 255
        model.maxWriteBlocks = 255
        var memory: [Int: [UInt8]] = [:]
        for block in 0...40 { memory[block] = [UInt8](repeating: 0, count: 16) }
        memory[0] = Type3AttributeBlock(nbr: 255, nbw: 15, nmaxb: 40, length: 0).bytes
        let services = [VirtualFeliCaService(code: FeliCaServiceCode.readOnly, store: 0, blockCount: 41),
                        VirtualFeliCaService(code: FeliCaServiceCode.readWrite, store: 0, blockCount: 41)]
        let card = VirtualFeliCaCard(model: model, systems: [VirtualFeliCaSystem(code: FeliCaSystemCode.ndef, idm: T3.idm, services: services)],
                                     stores: [memory])
        let (tag, plan) = T3.connect(card)
        let message = T3.message(size: 380)  // 24 blocks: 374 bytes in one frame at Nbw 15
        try tag.writeNDEF(message)
        #expect(plan.log.allSatisfy { $0.count <= 252 }, "\(plan.log.map(\.count))")
        let writes = plan.log.filter { $0[1] == 0x08 }.map { Int($0[13]) }  // blocks per Write Without Encryption
        #expect(writes == [1, 13, 11, 1], "WriteF, the data at the most that fits, Ln")
        let (again, readPlan) = T3.connect(card)
        #expect(try again.readNDEF() == message)
        let reads = readPlan.log.filter { $0[1] == 0x06 }.map { Int($0[13]) }
        #expect(reads == [1, 14, 10], "a 14-block answer is 237 bytes, 15 would be 253")
    }

    @Test("a message larger than 13 blocks is refused before any write")
    func tooLarge() throws {
        let (tag, plan) = T3.connect(.liteS(ndef: []))
        #expect(throws: TagError.messageTooLarge(size: 209, capacity: 208)) { try tag.writeNDEF([UInt8](repeating: 0xD0, count: 209)) }
        #expect(plan.log.allSatisfy { $0[1] != 0x08 })
    }

    @Test("lock: RWFlag 00 and the Lite-S MC block write-protected; later writes are refused")
    func lock() throws {
        let card = VirtualFeliCaCard.liteS(ndef: T3.message(size: 20))
        let (tag, _) = T3.connect(card)
        #expect(try tag.lockKind() == .permanent)
        try tag.writeLock()
        let (again, plan) = T3.connect(card)
        #expect(try again.queryNDEFStatus() == (.readOnly, 208))
        #expect(throws: TagError.readOnly) { try again.writeNDEF(T3.message(size: 20)) }
        #expect(card.block(0x88)?.prefix(4) == [0x00, 0x00, 0x00, 0x01])
        // The card itself now refuses block writes.
        #expect(throws: TagError.feliCaStatus(flag1: 0x01, flag2: 0xA5)) {
            try again.feliCa.writeBlocks([1], service: FeliCaServiceCode.readWrite, data: [[UInt8](repeating: 0, count: 16)])
        }
        _ = plan
    }

    @Test("a FeliCa Standard card's lock is not called permanent: only RWFlag changes")
    func standardLockIsReversible() throws {
        let (tag, plan) = T3.connect(.transitCard())
        guard case let .reversible(why) = try tag.lockKind() else { Issue.record("called permanent"); return }
        #expect(why.contains("RWFlag"))
        #expect(plan.log.isEmpty, "known without an exchange")
    }

    @Test("a card without the NDEF system is not NDEF formatted: it still answers a Polling of any system")
    func noNDEFSystem() throws {
        let (tag, plan) = T3.connect(.liteS(ndef: nil))
        #expect(try tag.queryNDEFStatus() == (.notSupported, 0))
        #expect(throws: TagError.notNDEFFormatted("the FeliCa card has no NDEF system (12FC)")) { try tag.readNDEF() }
        #expect(plan.log.prefix(2) == [T3.pollNDEF, T3.hex("06 00 FF FF 00 00")])
    }

    @Test("a card lifted during the 12FC Polling is lost, never \"not formatted\"", arguments: [0, 1])
    func liftedDuringPolling(answered: Int) throws {
        // 0: gone at the 12FC Polling; 1: no 12FC answer, then gone before the FFFF Polling.
        let card = answered == 0 ? VirtualFeliCaCard.liteS(ndef: T3.message(size: 40)) : .liteS(ndef: nil)
        let (tag, _) = T3.connect(card, plan: FaultPlan(leaveFieldAfter: answered))
        #expect(throws: TagError.tagLost) { try tag.readNDEF() }
        let (again, _) = T3.connect(card, plan: FaultPlan(leaveFieldAfter: answered))
        #expect(throws: TagError.tagLost) { try again.queryNDEFStatus() }
    }
}

@Suite("Type 3 hostile cards")
struct Type3HostileTests {
    @Test("a checksum mismatch is invalid tag data")
    func checksum() {
        let (tag, _) = T3.connect(.liteSWithBadChecksum(ndef: T3.message(size: 20)))
        #expect(throws: TagError.self) { try tag.readNDEF() }
        do { _ = try tag.readNDEF() } catch {
            guard case .invalidTagData = error else { Issue.record("got \(error)"); return }
        }
    }

    @Test("Ln larger than the blocks is invalid tag data, and nothing past block 0 is read")
    func oversizedLength() {
        let (tag, plan) = T3.connect(.liteSWithOversizedLength())
        #expect(throws: TagError.invalidTagData("Ln 209 exceeds the 208 bytes of 13 blocks")) { try tag.readNDEF() }
        #expect(plan.exchangeCount == 2)
    }

    @Test("a status flag error in the second read is a typed FeliCa status error")
    func failingMidRead() {
        let (tag, plan) = T3.connect(.liteSFailingMidRead(ndef: T3.message(size: 100), block: 6))
        #expect(throws: TagError.feliCaStatus(flag1: 0x02, flag2: 0xA8)) { try tag.readNDEF() }  // 2nd element of blocks 5–7
        #expect(plan.exchangeCount == 4)
    }

    @Test("short, long, wrong-LEN, wrong-code and wrong-IDm answers are malformed replies", arguments: [
        InjectedFault.truncate(keep: 5), .truncate(keep: 0), .append([0x00]), .replace(T3.hex("1D 07 01 2E 4C D1 0A 1B 2C 3D 00 00 01")),
        .replace(T3.hex("0D 09 01 2E 4C D1 0A 1B 2C 3D 00 00 01")), .replace(T3.hex("0D 07 FF 2E 4C D1 0A 1B 2C 3D 00 00 01")),
        .replace(T3.hex("0C 07 01 2E 4C D1 0A 1B 2C 3D 00 00")),
    ])
    func malformed(fault: InjectedFault) {
        let (tag, _) = T3.connect(.liteS(ndef: T3.message(size: 20)), plan: FaultPlan(faults: [1: fault]))
        do {
            _ = try tag.readNDEF()
            Issue.record("read succeeded")
        } catch {
            guard case .malformedReply = error else { Issue.record("got \(error)"); return }
        }
    }
}

@Suite("FeliCa commands on a virtual transit card")
struct FeliCaCommandTests {
    func connect() -> (FeliCaTag, FaultPlan, VirtualFeliCaCard) {
        let card = VirtualFeliCaCard.transitCard()
        let plan = FaultPlan()
        return (FeliCaTag(link: VirtualTagTransceiver(tag: card, plan: plan), idm: card.idm, pmm: card.pmm, systemCode: [0x00, 0x03]), plan, card)
    }

    @Test("Request Service: 00 00 for the areas and services without key, FF FF for a missing node")
    func requestService() throws {
        let (tag, plan, _) = connect()
        let versions = try tag.requestService(nodeCodes: [[0x00, 0x00], [0x0F, 0x09], [0x8B, 0x00], [0x48, 0x18]])
        #expect(versions == [[0, 0], [0, 0], [0, 0], [0xFF, 0xFF]])
        #expect(plan.log == [T3.hex("13 02 01 01 12 01 2A 0B 3C 4D 04 00 00 0F 09 8B 00 48 18")])
    }

    @Test("Read Without Encryption of history blocks 0–2 (service 090F): 3 blocks in one exchange")
    func readHistory() throws {
        let (tag, plan, card) = connect()
        let (flags, blocks) = try tag.readWithoutEncryption(serviceCodes: [[0x0F, 0x09]],
                                                            blockList: [[0x80, 0x00], [0x80, 0x01], [0x80, 0x02]])
        #expect(flags == .success)
        #expect(blocks == (0...2).map { card.block($0, store: 1)! })
        #expect(plan.exchangeCount == 1)
        // A block past the service, a missing service, and a write to a read-only service.
        #expect(try tag.readWithoutEncryption(serviceCodes: [[0x0F, 0x09]], blockList: [[0x80, 0x00], [0x80, 20]]).0 == FeliCaStatusFlags(0x02, 0xA8))
        #expect(try tag.readWithoutEncryption(serviceCodes: [[0x4B, 0x18]], blockList: [[0x80, 0x00]]).0 == FeliCaStatusFlags(0x01, 0xA6))
        #expect(try tag.writeWithoutEncryption(serviceCodes: [[0x0F, 0x09]], blockList: [[0x80, 0x00]],
                                               blockData: [[UInt8](repeating: 1, count: 16)]) == FeliCaStatusFlags(0x01, 0xA5))
        #expect(try tag.readWithoutEncryption(serviceCodes: [[0x0F, 0x09]], blockList: Array(repeating: [0x80, 0x00], count: 13)).0
                == FeliCaStatusFlags(0xFF, 0xA2))
    }

    @Test("write to the read/write service and read it back through its read-only twin")
    func writeReadBack() throws {
        let (tag, _, _) = connect()
        let data = (0..<16).map { UInt8($0) }
        try tag.writeBlocks([1], service: 0x1A89, data: [data])
        #expect(try tag.readBlocks([1], service: 0x1A8B) == [data])
    }

    @Test("Request System Code, Polling another system, Request Response, Specification Version, Reset Mode, V2")
    func otherCommands() throws {
        let (tag, _, _) = connect()
        #expect(try tag.requestSystemCode() == [[0x00, 0x03], [0xFE, 0x00]])
        #expect(try tag.requestResponse() == 0)
        let spec = try tag.requestSpecificationVersion()
        #expect(spec.flags == .success && spec.basic == [0x10, 0x01] && spec.option == [0x00, 0x01])
        #expect(try tag.resetMode() == .success)
        let v2 = try tag.requestServiceV2(nodeCodes: [[0x8B, 0x00], [0x11, 0x11]])
        #expect(v2.flags == .success && v2.encryptionID == 0x4F && v2.aes == [[0, 0], [0xFF, 0xFF]] && v2.des.isEmpty)
        let poll = try tag.polling(systemCode: [0xFE, 0x00], requestCode: 0x01)
        #expect(poll.idm == [0x11, 0x01, 0x12, 0x01, 0x2A, 0x0B, 0x3C, 0x4D] && poll.requestData == [0xFE, 0x00])
        #expect(tag.idm == poll.idm && tag.systemCode == [0xFE, 0x00])
        #expect(Array(try tag.readBlocks([0], service: 0x1A8B)[0].prefix(7)) == Array("TRANSIT".utf8))
        #expect(throws: TagError.tagLost) { try tag.polling(systemCode: [0x12, 0xFC]) }
        #expect(tag.product == .standard("RC-S9X4 (Japan transit IC)"))
    }

    @Test("products from PMm byte 1")
    func products() {
        #expect(FeliCaProduct(pmm: VirtualFeliCaModel.liteS.pmm) == .liteS)
        #expect(FeliCaProduct(pmm: T3.hex("03 01 4B 02 4F 49 93 FF")) == .standard("RC-S915"))
        #expect(FeliCaProduct(pmm: T3.hex("00 F0 00 00 00 00 00 00")) == .lite)
        #expect(FeliCaProduct(pmm: T3.hex("00 14 00 00 00 00 00 00")) == .mobile("3.0"))
        #expect(FeliCaProduct(pmm: [0x00]) == .unknown(0))
        #expect(FeliCaProduct(pmm: T3.hex("00 77 00 00 00 00 00 00")).description == "FeliCa (IC code 77)")
    }

    @Test("a published POL_RES decodes (Quio manual: IDm, PMm, system 12FC)")
    func pollingResponse() throws {
        let response = try FeliCaPollingResponse(frame: T3.hex("14 01 01 2E 30 C3 76 94 48 1F 03 35 0B 82 82 44 83 FF 12 FC"))
        #expect(response.idm == T3.hex("01 2E 30 C3 76 94 48 1F") && response.pmm == T3.hex("03 35 0B 82 82 44 83 FF"))
        #expect(response.requestData == [0x12, 0xFC])
        #expect(throws: TagError.self) { try FeliCaPollingResponse(frame: T3.hex("13 01 01 2E 30 C3 76 94 48 1F 03 35 0B 82 82 44 83 FF 12")) }
    }

    @Test("block-list elements: 2 bytes below 256, 3 bytes little-endian above")
    func elements() throws {
        #expect(FeliCaBlockElement.encode(block: 5, serviceIndex: 1) == [0x81, 0x05])
        #expect(FeliCaBlockElement.encode(block: 0x1234) == [0x00, 0x34, 0x12])
        let decoded = try FeliCaBlockElement.decode([0x81, 0x05, 0x00, 0x34, 0x12], count: 2)
        #expect(decoded.map(\.block) == [5, 0x1234] && decoded.map(\.serviceIndex) == [1, 0])
        #expect(throws: TagError.self) { try FeliCaBlockElement.decode([0x00, 0x34], count: 1) }
    }
}
