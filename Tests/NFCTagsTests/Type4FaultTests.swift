import NDEF
import NFCTags
import TagEmulation
import Testing

@Suite("Type 4 read under faults: typed errors, never wrong data")
struct Type4FaultTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let make: @Sendable () -> VirtualType4Tag
        let extendedLength: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "v2 small", make: { .smallMessage() }, extendedLength: false),
        Case(name: "v2 1000 bytes", make: { .largeMessage(size: 1000) }, extendedLength: false),
        Case(name: "v1 small", make: { .smallMessage(version: .v1) }, extendedLength: false),
        Case(name: "v3 40 000 bytes, extended APDUs",
             make: { .largeMessage(version: .v3, size: 40000, maxResponseLength: 0x1000, maxCommandLength: 0x1000) },
             extendedLength: true),
    ]

    /// Reads once without faults: the expected message and the number of exchanges.
    func baseline(_ c: Case) throws -> (VirtualType4Tag, Type4Tag, FaultPlan, [UInt8], Int) {
        let tag = c.make()
        let (t4, plan) = T4.connect(tag, extendedLength: c.extendedLength)
        let message = try t4.readNDEF()
        #expect(message == tag.ndefMessage)
        return (tag, t4, plan, message, plan.exchangeCount)
    }

    @Test("the tag leaves the field at every exchange of a read → tagLost", arguments: cases)
    func leaveField(_ c: Case) throws {
        let (tag, t4, plan, _, total) = try baseline(c)
        for k in 0..<total {
            plan.reset(leaveFieldAfter: k)
            tag.activate()
            #expect(throws: TagError.tagLost) { try T4.fresh(t4).readNDEF() }
            #expect(plan.exchangeCount == k + 1)
        }
    }

    /// Faults a reader can detect. A well-formed reply with other content (e.g. `00 00 90 00` for
    /// a READ) is indistinguishable from a different tag and is not among them.
    static let faults: [InjectedFault] = [
        .noReply,
        .truncate(keep: 0), .truncate(keep: 1), .truncate(keep: 2), .truncate(keep: 3), .truncate(keep: 16),
        .append([0x00]), .append([0x90, 0x00]), .append([0x01, 0x02, 0x90, 0x00]),
        .replace([]), .replace([0x90, 0x00]),
        .statusWord(0x69, 0x82), .statusWord(0x6A, 0x82), .statusWord(0x62, 0x82), .statusWord(0x6B, 0x00),
    ]

    @Test("short, long, replaced replies and wrong status words at every exchange", arguments: cases)
    func faultsEverywhere(_ c: Case) throws {
        let (tag, t4, plan, message, total) = try baseline(c)
        // Exchanges that select the NDEF application (6A 82 there means "no NDEF application").
        let applicationSelects = c.name.hasPrefix("v1") ? 0...1 : 0...0
        for k in 0..<total {
            for fault in Self.faults {
                plan.reset(faults: [k: fault])
                tag.activate()
                let t4 = T4.fresh(t4)
                let context = "\(c.name): \(fault) at exchange \(k)"
                do {
                    let read = try t4.readNDEF()
                    #expect(read == message, "wrong data: \(context)")
                } catch {
                    switch fault {
                    case .noReply:
                        #expect(error == .tagLost, "\(context): \(error)")
                    case .truncate(keep: 0), .truncate(keep: 1), .replace([]):
                        #expect(error == .malformedReply("\(fault == .truncate(keep: 1) ? 1 : 0)-byte reply has no status word"), "\(context): \(error)")
                    case let .statusWord(sw1, sw2):
                        if sw1 == 0x6A, sw2 == 0x82, applicationSelects.contains(k) {
                            guard case .notNDEFFormatted = error else {
                                Issue.record("\(context): \(error)")
                                continue
                            }
                        } else {
                            #expect(error == .status(sw1: sw1, sw2: sw2), "\(context): \(error)")
                        }
                    default:
                        break // any TagError is right; wrong data is what must never happen
                    }
                }
            }
        }
    }

    @Test("B1 replies that are not one 53 data object are malformed")
    func brokenODOReply() throws {
        for bad in [T4.hex("01 02 03 90 00"), T4.hex("53 05 01 02 90 00"), T4.hex("53 90 00"), T4.hex("53 82 00 90 00")] {
            let tag = VirtualType4Tag.largeMessage(version: .v3, size: 40000, maxResponseLength: 0x1000, maxCommandLength: 0x1000)
            // Exchange 13 is the first B1 (see Type4ReadTests.extendedV3).
            let (t4, _) = T4.connect(tag, extendedLength: true, plan: FaultPlan(faults: [13: .replace(bad)]))
            do {
                _ = try t4.readNDEF()
                Issue.record("accepted \(bad.hexString)")
            } catch {
                guard case .malformedReply(let why) = error else { throw error }
                #expect(why.contains("53 data object"))
            }
        }
    }

    @Test("READ BINARY returning more than asked is malformed")
    func overlongRead() {
        let channel = Type4ScriptedTransceiver([
            T4.hex("90 00"), T4.hex("90 00"), T4.hex("00 0F 20 00 0F 00 0F 04 06 E1 04 00 20 00 00 00 90 00"),
        ])
        #expect(throws: TagError.malformedReply("READ BINARY at 0 returned 16 bytes, 15 asked")) {
            try Type4Tag(transceiver: channel).readNDEF()
        }
    }

    @Test("malformed CC in the tag → invalidTagData, no NDEF file access", arguments: [
        ("MLe 0E", 4, UInt8(0x0E)),
        ("MLc 0C", 6, UInt8(0x0C)),
        ("TLV tag 05", 7, UInt8(0x05)),
        ("TLV length 05", 8, UInt8(0x05)),
        ("file ID 3F00", 9, UInt8(0x3F)),
        ("maxSize 0004", 11, UInt8(0x00)),
    ])
    func malformedCC(_ name: String, _ index: Int, _ value: UInt8) {
        let tag = VirtualType4Tag.smallMessage()
        var cc = tag.ccFile
        cc[index] = value
        if name == "maxSize 0004" { cc[12] = 0x04 }
        if name == "file ID 3F00" { cc[10] = 0x00 }
        tag.ccFile = cc
        let (t4, plan) = T4.connect(tag)
        do {
            _ = try t4.readNDEF()
            Issue.record("read a tag with \(name)")
        } catch TagError.invalidTagData {
            #expect(plan.exchangeCount == 3)
        } catch {
            Issue.record("\(name): unexpected \(error)")
        }
    }

    @Test("CC file shorter than 15 bytes: the tag's 6B 00 is reported")
    func shortCCFile() {
        let tag = VirtualType4Tag.smallMessage()
        tag.ccFile = Array(tag.ccFile.prefix(10))
        let (t4, _) = T4.connect(tag)
        #expect(throws: TagError.status(sw1: 0x6B, sw2: 0x00)) { try t4.readNDEF() }
    }

    @Test("NLEN out of range → invalidTagData", arguments: [
        ("NLEN 1", VirtualType4Tag.Version.v2, [UInt8(0x00), 0x01]),
        ("NLEN 2", .v2, [0x00, 0x02]),
        ("NLEN maxSize − 1", .v2, [0x07, 0xFF]),
        ("NLEN FFFF", .v2, [0xFF, 0xFF]),
        ("ENLEN 2", .v3, [0x00, 0x00, 0x00, 0x02]),
        ("ENLEN maxSize − 3", .v3, [0x00, 0x00, 0x07, 0xFD]),
        ("ENLEN FFFFFFFF", .v3, [0xFF, 0xFF, 0xFF, 0xFF]),
    ])
    func nlenOutOfRange(_ name: String, _ version: VirtualType4Tag.Version, _ length: [UInt8]) {
        let tag = VirtualType4Tag(version: version, ndef: VirtualType4Tag.sampleURIMessage, maxSize: 0x0800)
        var file = tag.ndefFile
        file.replaceSubrange(0..<length.count, with: length)
        tag.ndefFile = file
        let (t4, _) = T4.connect(tag)
        do {
            _ = try t4.readNDEF()
            Issue.record("accepted \(name)")
        } catch TagError.invalidTagData(let why) {
            #expect(why.contains(version == .v3 ? "ENLEN" : "NLEN"))
        } catch {
            Issue.record("\(name): unexpected \(error)")
        }
    }

    @Test("NLEN = maxSize − 2 (a full file) is valid")
    func nlenFull() throws {
        let message = VirtualType4Tag.sampleMessage(size: 0x07FE)
        let (t4, _) = T4.connect(VirtualType4Tag(ndef: message, maxSize: 0x0800))
        #expect(try t4.readNDEF() == message)
    }
}
