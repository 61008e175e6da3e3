import NDEF
@testable import NFCTags
import TagEmulation
import Testing

@Suite("Type 5 through PC/SC readers: transparent exchange, READ BINARY fallback, exchange counts")
struct Type5PCSCLinkTests {
    static func link(_ reader: EmulatedPCSCReader, uid: [UInt8]) throws -> PCSCISO15693Link {
        try PCSCISO15693Link(transceiver: EmulatedPCSCTransceiver(reader: reader), profile: reader.profile, uid: uid)
    }

    @Test func omnikeyReadsThroughTheTransparentExchangeInSixExchanges() throws {
        let virtual = T5.slix2()
        let reader = EmulatedPCSCReader(profile: .omnikey, tag: virtual)
        // The OMNIKEY personality answers GET DATA LSB first; the link turns it round.
        let getData = try EmulatedPCSCTransceiver(reader: reader).transceive([0xFF, 0xCA, 0x00, 0x00, 0x00])
        let link = try Self.link(reader, uid: Array(getData.dropLast(2)))
        #expect(link.uid == virtual.uid)
        reader.plan.reset()
        #expect(try Type5Tag(link: link).readNDEF() == T5.uriMessage)
        link.close()
        let log = reader.plan.log
        #expect(log.count == 6, "\(log.map(\.hexString))")
        #expect(log[0] == T5.hex("FF C2 00 00 02 81 00"))
        #expect(log[1] == T5.hex("FF C2 00 02 04 8F 02 02 03"))
        #expect(log[2] == T5.hex("FF C2 00 01 0C 95 0A 22 2B") + virtual.uid.reversed() + [0x00])
        #expect(log[5] == T5.hex("FF C2 00 00 02 82 00"))
        #expect(!reader.isTransparentSessionOpen)
    }

    @Test func aReaderRefusingFFC2FallsBackToReadBinary() throws {
        let virtual = T5.slix2()
        let reader = EmulatedPCSCReader(profile: .generic, tag: virtual)
        let link = try Self.link(reader, uid: virtual.uid)
        let tag = Type5Tag(link: link)
        #expect(try tag.readNDEF() == T5.uriMessage)
        #expect(link.transparentRefused)
        // Start refused (6D 00), block 0 (size and CC), blocks 1–3.
        #expect(reader.plan.log == [T5.hex("FF C2 00 00 02 81 00"), T5.hex("FF B0 00 00 00"), T5.hex("FF B0 00 01 00"),
                                    T5.hex("FF B0 00 02 00"), T5.hex("FF B0 00 03 00")])
        #expect(try tag.inspect().blockCount == 80)
        // A refused reader is remembered: a profile marked refused does not ask again.
        var remembered = PCSCReaderProfile.generic
        remembered.rawCommandsRefused = true
        #expect(remembered.iso15693Path == .readBinary)
    }

    /// Any refusal of a pass-through command, at any of its three steps, means block access for
    /// good: a status word `FF C2`'s start or switch answers (69 86 command not allowed, 6F 00 no
    /// diagnosis, 64 00), or a transceive the reader refuses (6A 81, also inside DO C0).
    @Test(arguments: [
        (0, [UInt8]([0x69, 0x86])), (0, [0x6F, 0x00]), (0, [0x64, 0x00]), (1, [0x6F, 0x00]),
        (1, [0xC0, 0x03, 0x01, 0x6A, 0x81, 0x90, 0x00]), (2, [0x6A, 0x81]), (2, [0xC0, 0x03, 0x01, 0x6D, 0x00, 0x90, 0x00]),
    ])
    func anyRefusalOfThePassThroughFallsBackToReadBinary(step: Int, answer: [UInt8]) throws {
        let virtual = T5.slix2()
        let reader = EmulatedPCSCReader(profile: .omnikey, tag: virtual)
        reader.plan.reset(faults: [step: .replace(answer)])
        let link = try Self.link(reader, uid: virtual.uid)
        #expect(try Type5Tag(link: link).readNDEF() == T5.uriMessage)
        #expect(link.transparentRefused)
        #expect(!link.passesAnyCommand)
        #expect(reader.plan.log.last == T5.hex("FF B0 00 03 00"), "\(reader.plan.log.map(\.hexString))")
        // A session that had started is ended (a refused start opened none: the emulator's own
        // state, behind the injected answer, does not count).
        if step > 0 { #expect(!reader.isTransparentSessionOpen) }
    }

    @Test func aTagTimeoutInsideTheSessionIsNoRefusal() throws {
        // DO C0 64 01 is the tag's silence, not the reader's refusal: a timeout, and the session stays.
        let virtual = T5.slix2()
        let reader = EmulatedPCSCReader(profile: .omnikey, tag: virtual)
        reader.plan.reset(faults: [2: .replace([0xC0, 0x03, 0x01, 0x64, 0x01, 0x90, 0x00])])
        let link = try Self.link(reader, uid: virtual.uid)
        #expect(throws: TagError.timeout) { try Type5Tag(link: link).readNDEF() }
        #expect(!link.transparentRefused)
    }

    @Test func aLibraryLabelThroughReadBinaryIsNotNDEFFormatted() throws {
        // The Flipper SLIX2 dump: block 0 is `03 0A 82 ED`. Without Get System Info only block 0
        // can tell the layout; no CC there means no NDEF, as through a reader that passes `2B`.
        let dump = VirtualISO15693Tag.flipperSLIX2Dump()
        let reader = EmulatedPCSCReader(profile: .generic, tag: dump)
        let tag = Type5Tag(link: try Self.link(reader, uid: dump.uid))
        let reason = "block 0 starts with 03, not the Type 5 magic E1/E2 (and the reader passes no Get System Info to tell the memory size)"
        #expect(throws: TagError.notNDEFFormatted(reason)) { try tag.readNDEF() }
        #expect(try tag.queryNDEFStatus().status == .notSupported)
        #expect(reader.plan.log == [T5.hex("FF C2 00 00 02 81 00"), T5.hex("FF B0 00 00 00"), T5.hex("FF B0 00 00 00")])
        #expect(dump.memory == VirtualISO15693Tag.flipperSLIX2Memory)
    }

    @Test func aSilentTagIsATimeoutAndAnEmptyAnswerTagLost() throws {
        // What Core NFC's Challenge (39) takes for success (docs/tags-and-readers.md §7.12): the
        // reader's DO C0 "no answer in time" (64 01), or success without a DO 97.
        let uid = T5.hex("E0 04 01 08 12 34 56 01")
        let started = [T5.hex("C0 03 00 90 00 90 00"), T5.hex("C0 03 00 90 00 8F 01 00 90 00 90 00")]
        let challenge = T5.hex("22 39") + uid.reversed() + [0x00, 0x01, 0x02]
        let silent = ScriptedTransceiver(started + [T5.hex("C0 03 01 64 01 90 00")])
        #expect(throws: TagError.timeout) { try PCSCISO15693Link(transceiver: silent, profile: .omnikey, uid: uid).transceive(challenge) }
        #expect(silent.sent.last == T5.hex("FF C2 00 01 0F 95 0D") + challenge + [0x00])
        let empty = ScriptedTransceiver(started + [T5.hex("C0 03 00 90 00 90 00")])
        #expect(throws: TagError.tagLost) { try PCSCISO15693Link(transceiver: empty, profile: .omnikey, uid: uid).transceive(challenge) }
    }

    @Test func writeThroughReadBinaryFallbackAndLockIsRefusedClearly() throws {
        let virtual = T5.st25dv()
        let reader = EmulatedPCSCReader(profile: .generic, tag: virtual)
        let message = T5.message(24)
        try Type5Tag(link: try Self.link(reader, uid: virtual.uid)).writeNDEF(message)
        #expect(reader.plan.log.contains { $0.starts(with: [0xFF, 0xD6, 0x00, 0x01, 0x04]) })
        #expect(try Type5Tag(link: DirectISO15693Link(virtual)).readNDEF() == message)
        #expect(throws: TagError.unsupported("Lock Block through this reader (it passes only block reads and writes)")) {
            try Type5Tag(link: try Self.link(reader, uid: virtual.uid)).writeLock()
        }
    }

    @Test func writeAndLockThroughTheTransparentExchange() throws {
        let virtual = T5.tagIt()
        let reader = EmulatedPCSCReader(profile: .springcard, tag: virtual)
        let link = try Self.link(reader, uid: virtual.uid)
        try Type5Tag(link: link).writeNDEF(T5.message(16))
        try Type5Tag(link: link).writeLock()
        link.close()
        #expect(virtual.lockedBlocks.count == 64)
        #expect(try Type5Tag(link: DirectISO15693Link(virtual)).queryNDEFStatus().status == .readOnly)
    }

    @Test func anACR122USaysItCannotReadISO15693() {
        let reader = EmulatedPCSCReader(profile: .acr122u, tag: T5.slix2())
        #expect(!PCSCReaderProfile.acr122u.canReadISO15693)
        #expect(throws: TagError.self) { try Self.link(reader, uid: T5.slix2().uid) }
        do {
            _ = try Self.link(reader, uid: [])
        } catch {
            #expect("\(error)".contains("cannot read them; use an ISO 15693 reader"))
        }
    }

    @Test func theReaderBuildsAnISO15693ATR() throws {
        let atr = EmulatedPCSCReader.atr(for: T5.slix2())
        #expect(atr == T5.hex("3B 8F 80 01 80 4F 0C A0 00 00 03 06 0B 00 14 00 00 00 00 77"), "the ICODE ATR pcsc-tools lists")
        guard case let .storageCard(standard, name) = try ATR(bytes: atr).contactless else {
            Issue.record("not a storage card"); return
        }
        #expect(standard == 0x0B && name.iso15693Name == "NXP ICODE SLI")
    }

    @Test func aWriteTimeoutThatLandedIsAcceptedAfterReadingTheBlockBack() throws {
        // A reader's "no answer in time" (C0 03 01 64 01) for a write that landed (ACR1552 trace).
        let virtual = T5.slix2()
        let reader = EmulatedPCSCReader(profile: .omnikey, tag: virtual)
        let link = try Self.link(reader, uid: virtual.uid)
        let tag = Type5Tag(link: link)
        _ = try tag.readNDEF()
        let first = reader.plan.exchangeCount
        reader.plan.reset(faults: [0: .replace([0xC0, 0x03, 0x01, 0x64, 0x01, 0x90, 0x00])])
        _ = first
        try tag.writeNDEF(T5.message(12))
        #expect(try Type5Tag(link: DirectISO15693Link(virtual)).readNDEF() == T5.message(12))
    }
}

