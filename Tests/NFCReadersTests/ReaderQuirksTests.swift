import ReaderCore
import Testing
import NFCReaders
@testable import NFCTags
import TagEmulation

/// Issue 18: real readers' quirks, against the emulated personalities that reproduce them
/// (docs/tags-and-readers.md §3).
@Suite struct ReaderQuirksTests {
    static let uid: [UInt8] = [0x04, 0x5A, 0x2C, 0x91, 0x6E, 0x3F, 0x80]

    /// A tag image whose CC claims `ccSize` (×8 bytes) and whose NDEF TLV says `length` bytes
    /// (the value is a counting pattern): a CC that overstates the chip, as real tags' dumps show.
    static func overstatedTag(_ product: Type2Product, ccSize: UInt8, length: Int) throws -> VirtualType2Tag {
        let base = try VirtualType2Tag(product: product, uid: uid)
        var memory = base.memory
        memory[12 ..< 16] = [0xE1, 0x10, ccSize, 0x00]
        let tlv: [UInt8] = [0x03, 0xFF, UInt8(length >> 8), UInt8(length & 0xFF)]
        memory[16 ..< 20] = ArraySlice(tlv)
        // The pattern fills the user memory only: lock and configuration pages keep their defaults.
        for i in 20 ..< 16 + (product.userMemorySize ?? 0) { memory[i] = UInt8(truncatingIfNeeded: i) }
        return try VirtualType2Tag(product: product, memory: memory)
    }

    static func message(_ n: Int) -> [UInt8] { (0 ..< n).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) } }

    // MARK: 1. Reading past the chip: 63 00 lock-up, recovered by re-presenting the tag

    @Test func acr122uLocksUpAfterARefusedPageAndTheLinkRecovers() throws {
        // Ultralight C (no GET_VERSION: the size is unknown) whose CC claims NTAG215 size and whose
        // TLV runs past page 2Bh (the last readable page): the READ of page 2Ch is refused.
        let tag = try Self.overstatedTag(.ultralightC, ccSize: 0x3E, length: 400)
        let reader = EmulatedPCSCReader(profile: .acr122u, tag: tag)
        let ops = Type2Tag(link: reader.type2Link())
        // READ 2Bh returns 2Bh and, rolled over, pages 0-2 (kept as 2Ch-2Eh: the size is unknown);
        // READ 2Fh is the first the tag refuses.
        #expect(throws: TagError.pageRefused(page: 0x2F, sw1: 0x63, sw2: 0x00)) { try ops.readNDEF() }
        // Recovered: the reader no longer refuses every READ BINARY.
        #expect(!reader.isLockedUp)
        let again = try reader.type2Link().read(page: 4)
        #expect(again.count == 16)
    }

    @Test func theEmulatedACR122UReallyLocksUpWithoutRecovery() throws {
        let tag = try Self.overstatedTag(.ultralightC, ccSize: 0x3E, length: 400)
        let reader = EmulatedPCSCReader(profile: .acr122u, tag: tag)
        let link = PseudoAPDUType2Link(transceiver: EmulatedPCSCTransceiver(reader: reader), profile: .acr122u)
        #expect(throws: TagError.pageRefused(page: 0x2C, sw1: 0x63, sw2: 0x00)) { try link.read(page: 0x2C) }
        #expect(reader.isLockedUp)
        #expect(throws: TagError.pageRefused(page: 4, sw1: 0x63, sw2: 0x00)) { try link.read(page: 4) }
        reader.reset() // the tag is lifted and put back
        #expect(try link.read(page: 4).count == 16)
    }

    @Test func anIdentifiedChipIsNeverReadPastItsEnd() throws {
        // NTAG213 with an NTAG215-sized CC: GET_VERSION says 45 pages, so nothing past is read.
        let tag = try Self.overstatedTag(.ntag213, ccSize: 0x3E, length: 400)
        let reader = EmulatedPCSCReader(profile: .acr122u, tag: tag)
        #expect(throws: TagError.self) { try Type2Tag(link: reader.type2Link()).readNDEF() }
        #expect(!reader.isLockedUp)
        let pagesAsked = reader.plan.log.compactMap { apdu -> Int? in
            apdu.count == 5 && apdu[1] == 0xB0 ? Int(apdu[3]) : nil
        }
        #expect(pagesAsked.allSatisfy { $0 < 45 })
    }

    @Test func aShortMessageUnderAnOverstatedCCIsReadWithoutTouchingTheEnd() throws {
        let tag = try Self.overstatedTag(.ultralightC, ccSize: 0x3E, length: 20)
        let reader = EmulatedPCSCReader(profile: .acr122u, tag: tag)
        let bytes = try Type2Tag(link: reader.type2Link()).readNDEF()
        #expect(bytes.count == 20)
        #expect(!reader.isLockedUp)
    }

    // MARK: 2. 63 01 / 63 7F from ACS direct transmit

    @Test func acsStatusWordsFallBackAsForANak() throws {
        let tag = try VirtualType2Tag(product: .ultralight, uid: Self.uid, ndef: Self.message(20))
        let reader = EmulatedPCSCReader(profile: .acr122u, tag: tag)
        reader.pn532ErrorsAsStatusWords = true
        let info = try Type2Tag(link: reader.type2Link()).inspect()
        #expect(info.version == nil)
        #expect(!info.productIdentified)
        #expect(info.product == .ultralight)
        #expect(reader.plan.log.contains { $0.count >= 8 && $0[6] == 0x42 && $0[7] == 0x60 })
    }

    @Test func statusWordMapping() throws {
        let tag = try VirtualType2Tag(product: .ultralight, uid: Self.uid)
        let reader = EmulatedPCSCReader(profile: .acr122u, tag: tag)
        reader.pn532ErrorsAsStatusWords = true
        let link = reader.type2Link()
        // A mute tag: 63 01 → re-select → unsupported.
        #expect(throws: TagError.self) { try link.getVersion() }
        do { _ = try link.getVersion(); Issue.record("expected a throw") } catch {
            // (Not `catch let TagError.unsupported(why)`: swiftc 6.3.1 crashes on that pattern
            // after a typed-throws call in an untyped function.)
            guard case let .unsupported(why) = error else { throw error }
            #expect(why.contains("GET_VERSION"))
        }
        // A command the PN532 does not know: 63 7F → unsupported.
        #expect(reader.transmit([0xFF, 0x00, 0x00, 0x00, 0x02, 0xD4, 0x99]) == [0x63, 0x7F])
        #expect(reader.transmit([0xFF, 0x00, 0x00, 0x00, 0x03, 0xD4, 0x42, 0x60]) == [0x63, 0x01])
    }

    // MARK: 3. 6A 82 / 6B 00 page refusals of generic readers

    @Test(arguments: [[UInt8(0x6B), 0x00], [0x6A, 0x82]])
    func genericRefusalOfReadsPastTheEndFallsBackToSinglePages(sw: [UInt8]) throws {
        let message = Self.message(46) // fills a 48-byte Ultralight up to page 0Fh
        let tag = try VirtualType2Tag(product: .ultralight, uid: Self.uid, ndef: message)
        let reader = EmulatedPCSCReader(profile: .generic, tag: tag)
        reader.refusesReadsPastMemoryEnd = sw
        #expect(try Type2Tag(link: reader.type2Link()).readNDEF() == message)
        #expect(reader.plan.log.contains([0xFF, 0xB0, 0x00, 0x0F, 0x04]))
    }

    @Test func aPageRefusedEvenAloneIsATypedErrorNamingIt() throws {
        // Ultralight (16 pages) whose CC claims 144 bytes and whose TLV runs to page 10h.
        let tag = try Self.overstatedTag(.ultralight, ccSize: 0x12, length: 60)
        let reader = EmulatedPCSCReader(profile: .generic, tag: tag)
        reader.refusesReadsPastMemoryEnd = [0x6B, 0x00]
        #expect(throws: TagError.pageRefused(page: 16, sw1: 0x6B, sw2: 0x00)) {
            try Type2Tag(link: reader.type2Link()).readNDEF()
        }
        #expect(TagError.pageRefused(page: 16, sw1: 0x6B, sw2: 0x00).description.contains("page 16"))
    }

    // MARK: 4. Reader identity from the firmware string

    @Test func firmwareStringDecidesTheProfile() {
        #expect(PCSCReaderProfile.firmwareString(Array("ACR122U215".utf8)) == "ACR122U215")
        #expect(PCSCReaderProfile.firmwareString(Array("ACR122U216".utf8) + [0x90, 0x00]) == "ACR122U216")
        #expect(PCSCReaderProfile.firmwareString([0x6A, 0x81]) == nil)
        #expect(PCSCReaderProfile.identify(readerName: "ACS ACR 38U-CCID 00 00", firmware: "ACR122U215") == .acr122u)
        #expect(PCSCReaderProfile.identify(readerName: "Some Reader", firmware: "ACR122U201") == .acr122u)
        // An ACS reader that is not PN532-based never gets the direct transmit.
        #expect(PCSCReaderProfile.identify(readerName: "ACS ACR38U-CCID 00 00", firmware: "ACR38U v3.1") == .generic)
        // No answer: the name decides, ACR 38U-CCID included (libnfc's acr122_pcsc prefixes).
        #expect(PCSCReaderProfile.identify(readerName: "ACS ACR 38U-CCID 00 00", firmware: nil) == .acr122u)
        // A bare status word instead of a firmware string: not an ACR122U, whatever the name says.
        #expect(PCSCReaderProfile.identify(readerName: "ACS ACR 38U-CCID 00 00", firmware: nil, refused: true) == .generic)
        #expect(PCSCReaderProfile.identify(readerName: "ACS ACR1252 1S CL Reader PICC 00 00", firmware: nil, refused: true) == .acr1252u)
        #expect(PCSCReaderProfile.identify(readerName: "ACS ACR38U-CCID 00 00", firmware: nil) == .acr122u)
        #expect(PCSCReaderProfile(readerName: "HID Global OMNIKEY 5022 Smart Card Reader 00 00") == .omnikey)
        #expect(PCSCReaderProfile(readerName: "SpringCard Prox'N'Roll (PICC) 00 00") == .springcard)
        #expect(PCSCReaderProfile.firmwareQuery(readerName: "Virtual PCD 00 00") == nil)
    }

    @Test func registryAsksTheEmulatedACR122UOnceAndCaches() throws {
        let tag = try VirtualType2Tag(product: .ntag213, uid: Self.uid)
        let reader = EmulatedPCSCReader(profile: .acr122u, tag: tag)
        let registry = PCSCReaderRegistry()
        var asked = 0
        let ask: ([UInt8]) -> [UInt8]? = { asked += 1; return reader.transmit($0) }
        #expect(registry.profile(readerName: "ACS ACR 38U-CCID 00 00", ask: ask) == .acr122u)
        #expect(registry.profile(readerName: "ACS ACR 38U-CCID 00 00", ask: ask) == .acr122u)
        #expect(asked == 1)
        #expect(reader.plan.log == [[0xFF, 0x00, 0x48, 0x00, 0x00]])
        // A generic reader is never asked.
        #expect(registry.profile(readerName: "Virtual PCD 00 00", ask: ask) == .generic)
        #expect(asked == 1)
        // An ACR38-named reader that refuses the question (a contact reader, or another firmware).
        let other = EmulatedPCSCReader(profile: .generic, tag: tag)
        #expect(registry.profile(readerName: "ACS ACR38U-CCID 00 01") { other.transmit($0) } == .generic)
    }

    @Test func aRefusedRawPathIsRememberedPerReader() throws {
        let registry = PCSCReaderRegistry()
        let name = "Identiv uTrust 3700 F CL Reader 00 00"
        #expect(registry.profile(readerName: name) { _ in nil }.rawCommandPath == .transparentExchange)
        registry.noteRawCommandsRefused(readerName: name)
        let profile = registry.profile(readerName: name) { _ in Issue.record("asked again"); return nil }
        #expect(profile.rawCommandPath == .none)
        #expect(profile.family == .identiv && profile.readBinaryLength == 4, "the rest of the profile stays")
        // The next link starts without the refused APDU.
        let tag = try VirtualType2Tag(product: .ntag213, uid: Self.uid, ndef: Self.message(10))
        let reader = EmulatedPCSCReader(profile: .identiv, tag: tag)
        reader.refusesTransparentExchange = true
        let link = PseudoAPDUType2Link(transceiver: EmulatedPCSCTransceiver(reader: reader), profile: profile)
        #expect(try Type2Tag(link: link).readNDEF() == Self.message(10))
        #expect(reader.plan.log.allSatisfy { $0[1] == 0xB0 })
    }

    @Test func aReaderMisnamedAsPN532RefusesDirectTransmitAndStillReads() throws {
        // Taken for an ACR122U by name, but FF 00 00 00 is refused (6A 81): raw frames off, READ BINARY on.
        let message = Self.message(30)
        let tag = try VirtualType2Tag(product: .ntag213, uid: Self.uid, ndef: message)
        let reader = EmulatedPCSCReader(profile: .generic, tag: tag)
        let link = PseudoAPDUType2Link(transceiver: EmulatedPCSCTransceiver(reader: reader), profile: .acr122u)
        let ops = Type2Tag(link: link)
        #expect(try ops.readNDEF() == message)
        #expect(try ops.inspect().version == nil)
        #expect(!link.canSendRawCommands)
        #expect(reader.plan.log.first == [0xFF, 0x00, 0x00, 0x00, 0x03, 0xD4, 0x42, 0x60])
        #expect(reader.plan.log.dropFirst().allSatisfy { $0[1] == 0xB0 })
    }

    // MARK: 5. Feedback

    @Test func acr122uAutomaticBuzzerIsTurnedOffOnceAndRestored() throws {
        let reader = EmulatedPCSCReader(profile: .acr122u, tag: try VirtualType2Tag(product: .ntag213, uid: Self.uid))
        let registry = PCSCReaderRegistry()
        #expect(reader.buzzerOnDetection)
        #expect(registry.claimBuzzer(readerName: reader.readerName))
        _ = reader.transmit(PCSCReaderFeedback.automaticBuzzerOff)
        #expect(!reader.buzzerOnDetection)
        #expect(!registry.claimBuzzer(readerName: reader.readerName))
        #expect(registry.readersWithBuzzerOff == [reader.readerName])
        // Restoring goes through the escape path (direct connection, no card needed).
        #expect(reader.control(PCSCReaderFeedback.automaticBuzzerOn) == [0x90, 0x00])
        #expect(reader.buzzerOnDetection)
    }

    @Test func acr1252uFeedbackIsEscapeCommands() throws {
        let reader = EmulatedPCSCReader(profile: .acr1252u, tag: try VirtualType2Tag(product: .ntag213, uid: Self.uid))
        let steps = PCSCReaderFeedback.steps(.success, profile: .acr1252u, readerName: reader.readerName)
        #expect(steps == [.control([0xE0, 0x00, 0x00, 0x29, 0x01, 0x02]), .control([0xE0, 0x00, 0x00, 0x28, 0x01, 0x0A])])
        for case let .control(command) in steps { #expect(reader.control(command)?.prefix(5) == [0xE1, 0x00, 0x00, 0x00, 0x01]) }
        #expect(reader.ledState == 0x02)
        #expect(reader.buzzerBeeps == [0x0A])
        // The ACR122U pseudo-APDU is not how an ACR1252U is driven.
        #expect(reader.transmit([0xFF, 0x00, 0x40, 0xA8, 0x04, 0x02, 0x01, 0x01, 0x01]) == [0x6A, 0x81])
        #expect(PCSCReaderFeedback.steps(.failure, profile: .acr1252u, readerName: "ACS ACR1255U-J1 PICC 00 00")
            == [.control([0xE0, 0x00, 0x00, 0x28, 0x01, 0x1E])])
        #expect(PCSCReaderFeedback.steps(.success, profile: .generic, readerName: "Virtual PCD 00 00").isEmpty)
    }

    // MARK: 7. Product not guessed as fact

    @Test func productFromCCIsAGuessNotAFact() throws {
        // A real NTAG216 with a factory NTAG213 CC, on a reader that cannot pass GET_VERSION.
        let tag = try Self.overstatedTag(.ntag216, ccSize: 0x12, length: 10)
        let reader = EmulatedPCSCReader(profile: .generic, tag: tag)
        let details = NDEFTagDetails(describing: Type2Tag(link: reader.type2Link()))
        #expect(details.product == nil)
        #expect(details.productGuess == "NTAG213")
        // The same tag where GET_VERSION passes: identified for real.
        let raw = EmulatedPCSCReader(profile: .identiv, tag: tag)
        let identified = NDEFTagDetails(describing: Type2Tag(link: raw.type2Link()))
        #expect(identified.product == "NTAG216", "\(raw.plan.log.map(\.hexString))")
        #expect(identified.productGuess == nil)
    }
}

