import NDEF
import NFCTags
import TagEmulation
import Testing

@Suite("Type 4 read: exact command sequences")
struct Type4ReadTests {
    @Test("v2 small message: exactly 5 exchanges, byte for byte")
    func smallV2() throws {
        let tag = VirtualType4Tag.smallMessage()
        let (t4, plan) = T4.connect(tag)
        #expect(try t4.readNDEF() == VirtualType4Tag.sampleURIMessage)
        #expect(T4.lines(plan.log) == T4.lines([
            T4.selectApp, T4.selectCC, T4.readCC, T4.selectNDEF,
            T4.hex("00 B0 00 00 F6"),
        ]))
        #expect(tag.ccFile == T4.hex("00 0F 20 00 F6 00 F6 04 06 E1 04 08 00 00 00"))
    }

    @Test("a message of MLe − 2 bytes still takes 5 exchanges; MLe − 1 takes 6")
    func boundary() throws {
        for (size, exchanges) in [(0xF6 - 2, 5), (0xF6 - 1, 6)] {
            let message = VirtualType4Tag.sampleMessage(size: size)
            let (t4, plan) = T4.connect(VirtualType4Tag(ndef: message))
            #expect(try t4.readNDEF() == message)
            #expect(plan.exchangeCount == exchanges)
            if exchanges == 6 {
                // The one missing byte at offset 2 + 244 = F6.
                #expect(plan.log.last == T4.hex("00 B0 00 F6 01"))
            }
        }
    }

    @Test("empty NDEF file (NLEN 0) reads as no bytes in 5 exchanges")
    func empty() throws {
        let (t4, plan) = T4.connect(VirtualType4Tag(ndef: []))
        #expect(try t4.readNDEF() == [])
        #expect(plan.exchangeCount == 5)
    }

    @Test("a file smaller than MLe is read with Le = file size")
    func tinyFile() throws {
        let message = VirtualType4Tag.sampleURIMessage
        let (t4, plan) = T4.connect(VirtualType4Tag(ndef: message, maxSize: 0x20))
        #expect(try t4.readNDEF() == message)
        #expect(plan.log.last == T4.hex("00 B0 00 00 20"))
    }

    @Test("v2 4 KB message: first read, then MLe-sized chunks")
    func largeV2() throws {
        let tag = VirtualType4Tag.largeMessage(size: 4096)
        let (t4, plan) = T4.connect(tag)
        #expect(try t4.readNDEF() == VirtualType4Tag.sampleMessage(size: 4096))
        // 4 setup + first read (NLEN + 244 bytes) + 15 × 246 + 162.
        var expected = [T4.selectApp, T4.selectCC, T4.readCC, T4.selectNDEF, T4.hex("00 B0 00 00 F6")]
        var offset = 0xF6
        for _ in 0..<15 {
            expected.append([0x00, 0xB0, UInt8(offset >> 8), UInt8(offset & 0xFF), 0xF6])
            offset += 0xF6
        }
        expected.append(T4.hex("00 B0 0F 60 A2"))
        #expect(T4.lines(plan.log) == T4.lines(expected))
        #expect(plan.exchangeCount == 21)
    }

    @Test("v3 40 000-byte message: CC in two reads, B0 up to 7FFF, then B1 with offset data objects")
    func largeV3() throws {
        let tag = VirtualType4Tag.largeMessage(version: .v3, size: 40000)
        let (t4, plan) = T4.connect(tag)
        #expect(try t4.readNDEF() == VirtualType4Tag.sampleMessage(size: 40000))
        let log = plan.log
        #expect(T4.lines(Array(log.prefix(6))) == T4.lines([
            T4.selectApp, T4.selectCC, T4.readCC, T4.readCCv3Tail, T4.selectNDEF, T4.hex("00 B0 00 00 F6"),
        ]))
        #expect(tag.ccFile == T4.hex("00 11 30 00 F6 00 F6 06 08 E1 04 00 00 9C 84 00 00"))
        // 133 more B0 reads of 246 bytes (the last from 7FCE), then B1 from 80C4 with 243 data bytes.
        let b0 = log.filter { $0[1] == 0xB0 }
        let b1 = log.filter { $0[1] == 0xB1 }
        #expect(b0.count == 2 + 1 + 133)
        #expect(b0.last == T4.hex("00 B0 7F CE F6"))
        #expect(b1.count == 29)
        #expect(b1.first == T4.hex("00 B1 00 00 05 54 03 00 80 C4 F6"))
        #expect(b1.dropFirst().first == T4.hex("00 B1 00 00 05 54 03 00 81 B7 F6"))
        #expect(b1.last == T4.hex("00 B1 00 00 05 54 03 00 9B 58 EF"))
        #expect(log.count == 168)
    }

    @Test("v3 with extended-length APDUs: Le 4096 in the extended form")
    func extendedV3() throws {
        let tag = VirtualType4Tag.largeMessage(version: .v3, size: 40000, maxResponseLength: 0x1000, maxCommandLength: 0x1000)
        let (t4, plan) = T4.connect(tag, extendedLength: true)
        #expect(try t4.readNDEF() == VirtualType4Tag.sampleMessage(size: 40000))
        let log = plan.log
        #expect(log[5] == T4.hex("00 B0 00 00 00 10 00"))
        // B0 at 0, 4096, …, 28672 (8 reads), then B1 from 32768: 4092 data bytes per 4096-byte reply.
        #expect(log[12] == T4.hex("00 B0 70 00 00 10 00"))
        #expect(log[13] == T4.hex("00 B1 00 00 00 00 05 54 03 00 80 00 10 00"))
        #expect(log.count == 5 + 8 + 2)
        #expect(log.last == T4.hex("00 B1 00 00 00 00 05 54 03 00 8F FC 0C 4C"))
    }

    @Test("without extendedLength a large MLe is capped at 255")
    func shortCap() throws {
        let tag = VirtualType4Tag.largeMessage(size: 1000, maxResponseLength: 0x1000)
        let (t4, plan) = T4.connect(tag)
        #expect(try t4.readNDEF() == VirtualType4Tag.sampleMessage(size: 1000))
        #expect(plan.log[4] == T4.hex("00 B0 00 00 FF"))
        #expect(plan.exchangeCount == 4 + 4)
    }

    @Test("legacy v1 tag: v2 SELECT fails 6A 82, v1 SELECT without Le, file SELECTs with P2 = 00")
    func legacy() throws {
        let tag = VirtualType4Tag.smallMessage(version: .v1)
        let (t4, plan) = T4.connect(tag)
        #expect(try t4.readNDEF() == VirtualType4Tag.sampleURIMessage)
        #expect(T4.lines(plan.log) == T4.lines([
            T4.selectApp, T4.selectLegacyApp, T4.selectCCLegacy, T4.readCC, T4.selectNDEFLegacy,
            T4.hex("00 B0 00 00 F6"),
        ]))
        #expect(tag.ccFile == T4.hex("00 0F 10 00 F6 00 F6 04 06 E1 04 08 00 00 00"))
    }

    @Test("v2 file past 7FFF: the chunk before 7FFF is cut so the last B0 starts at 7FFF")
    func v2NearLimit() throws {
        let message = VirtualType4Tag.sampleMessage(size: 33000)
        let tag = VirtualType4Tag(ndef: message, maxSize: 33002)
        let (t4, plan) = T4.connect(tag)
        #expect(try t4.readNDEF() == message)
        let b0 = plan.log.filter { $0[1] == 0xB0 }
        #expect(plan.log.allSatisfy { $0[1] != 0xB1 })
        // Offsets 0, F6, …, 7FCE (134 reads), then 7FCE + 246 would cross 7FFF: cut to 31 bytes.
        #expect(b0.suffix(2) == [T4.hex("00 B0 7F CE 31"), T4.hex("00 B0 7F FF EB")])
    }

    @Test("v2 file whose end no B0 can reach: unsupported, never wrong data")
    func v2OutOfReach() throws {
        let message = VirtualType4Tag.sampleMessage(size: 40000)
        let (t4, _) = T4.connect(VirtualType4Tag(ndef: message, maxSize: 40002))
        #expect(throws: TagError.self) { try t4.readNDEF() }
        do {
            _ = try t4.readNDEF()
        } catch {
            guard case .unsupported(let why) = error else { throw error }
            #expect(why.contains("out of reach"))
        }
    }

    @Test("query: status and capacity from the CC in 3 exchanges")
    func query() throws {
        let (t4, plan) = T4.connect(VirtualType4Tag(ndef: [], maxSize: 0x0800))
        let result = try t4.queryNDEFStatus()
        #expect(result.status == .readWrite && result.capacity == 0x07FE)
        #expect(T4.lines(plan.log) == T4.lines([T4.selectApp, T4.selectCC, T4.readCC]))

        let (v3, _) = T4.connect(VirtualType4Tag(version: .v3, maxSize: 0x0001_0000))
        let r3 = try v3.queryNDEFStatus()
        #expect(r3.status == .readWrite && r3.capacity == 0xFFFC)

        let (ro, _) = T4.connect(VirtualType4Tag.readOnly())
        #expect(try ro.queryNDEFStatus().status == .readOnly)

        let (noRead, _) = T4.connect(VirtualType4Tag(readAccess: 0xFF))
        let r = try noRead.queryNDEFStatus()
        #expect(r.status == .notSupported && r.capacity == 0)

        let (st, _) = T4.connect(VirtualType4Tag(readAccess: 0x80, writeAccess: 0x80))
        #expect(try st.queryNDEFStatus().status == .readWrite)
    }

    @Test("no NDEF application: query says notSupported, read says notNDEFFormatted")
    func noApplication() throws {
        let channel = Type4ScriptedTransceiver([T4.hex("6A 82"), T4.hex("6A 82")])
        let result = try Type4Tag(transceiver: channel).queryNDEFStatus()
        #expect(result.status == .notSupported && result.capacity == 0)
        #expect(channel.sent == [T4.selectApp, T4.selectLegacyApp])

        let again = Type4ScriptedTransceiver([T4.hex("6A 82"), T4.hex("6A 82")])
        do {
            _ = try Type4Tag(transceiver: again).readNDEF()
            Issue.record("read succeeded")
        } catch {
            guard case .notNDEFFormatted(let why) = error else { throw error }
            #expect(why.contains("6A 82"))
        }
    }

    @Test("read access denied or reserved: unsupported, no NDEF file access")
    func readDenied() throws {
        for byte: UInt8 in [0xFF, 0x01] {
            let (t4, plan) = T4.connect(VirtualType4Tag(ndef: VirtualType4Tag.sampleURIMessage, readAccess: byte))
            #expect(throws: TagError.self) { try t4.readNDEF() }
            #expect(plan.exchangeCount == 3)
        }
    }

    @Test("a tag that returns fewer bytes than asked is read on from where it stopped")
    func shortReads() throws {
        // A scripted v2 tag answering the first NDEF read with 6 bytes, then the rest in one go.
        let message = VirtualType4Tag.sampleURIMessage
        let channel = Type4ScriptedTransceiver([
            T4.hex("90 00"), T4.hex("90 00"), T4.hex("00 0F 20 00 F6 00 F6 04 06 E1 04 08 00 00 00 90 00"), T4.hex("90 00"),
            [0x00, 0x12] + Array(message.prefix(4)) + [0x90, 0x00],
            Array(message.dropFirst(4)) + [0x90, 0x00],
        ])
        #expect(try Type4Tag(transceiver: channel).readNDEF() == message)
        #expect(channel.sent.last == T4.hex("00 B0 00 06 0E"))
    }
}

/// One object per connection remembers the CC and the selected file (issue 12: reports must not
/// re-read what the read learned).
@Suite("Type 4: what one connection already learned is not asked again")
struct Type4RememberedStateTests {
    @Test("after readNDEF: queryNDEFStatus and the CC cost no exchange; a second read is one READ BINARY")
    func readThenQuery() throws {
        let (t4, plan) = T4.connect(.smallMessage())
        _ = try t4.readNDEF()
        #expect(T4.lines(plan.log) == T4.lines([T4.selectApp, T4.selectCC, T4.readCC, T4.selectNDEF, T4.hex("00 B0 00 00 F6")]))
        plan.reset()
        let (status, capacity) = try t4.queryNDEFStatus()
        #expect(status == .readWrite)
        let cc = try t4.readCapabilityContainer()
        #expect(capacity == cc.capacity)
        #expect(t4.knownCapabilityContainer?.mappingVersion == 0x20)
        #expect(plan.exchangeCount == 0)
        #expect(try t4.readNDEF() == VirtualType4Tag.sampleURIMessage)
        #expect(T4.lines(plan.log) == T4.lines([T4.hex("00 B0 00 00 F6")]))
    }

    @Test("query, write, read back, lock, query: the CC is read once, each file selected once")
    func writePath() throws {
        let tag = VirtualType4Tag.smallMessage()
        let (t4, plan) = T4.connect(tag)
        _ = try t4.queryNDEFStatus()
        let message = VirtualType4Tag.sampleMessage(size: 40)
        try t4.writeNDEF(message)
        #expect(try t4.readNDEF() == message)
        try t4.writeLock()
        #expect(try t4.queryNDEFStatus().status == .readOnly)
        #expect(T4.lines(plan.log) == T4.lines([
            T4.selectApp, T4.selectCC, T4.readCC,                      // queryNDEFStatus
            T4.selectNDEF, T4.hex("00 D6 00 00 02 00 00"),              // NLEN = 0
            T4.hex("00 D6 00 02 28") + message, T4.hex("00 D6 00 00 02 00 28"),
            T4.hex("00 B0 00 00 F6"),                                   // read back
            T4.selectCC, T4.hex("00 D6 00 0E 01 FF"), T4.hex("00 B0 00 0E 01"),  // lock + check
        ]))
        #expect(tag.ccFile[14] == 0xFF)
    }

    @Test("forgetState (raw APDUs went through the channel) and a failed exchange open the tag again")
    func forgetting() throws {
        let (t4, plan) = T4.connect(.smallMessage())
        _ = try t4.readNDEF()
        t4.forgetState()
        #expect(t4.knownCapabilityContainer == nil)
        plan.reset()
        _ = try t4.readNDEF()
        #expect(plan.exchangeCount == 5)
        plan.reset(faults: [0: .statusWord(0x6F, 0x00)])
        #expect(throws: TagError.status(sw1: 0x6F, sw2: 0x00)) { try t4.readNDEF() }
        #expect(t4.knownCapabilityContainer == nil)
        plan.reset()
        _ = try t4.readNDEF()
        #expect(plan.exchangeCount == 5)
    }
}
