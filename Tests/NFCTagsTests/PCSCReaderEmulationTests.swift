import NFCTags
import Synchronization
import TagEmulation
import Testing

/// A minimal ISO-DEP card: answers SELECT with 90 00 and anything else with 6D 00; records APDUs.
final class EchoISODEPTag: VirtualTag {
    let uid: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
    let atqa: [UInt8] = [0x03, 0x44]
    let sak: UInt8 = 0x20
    let ats: [UInt8]?
    private let state = Mutex((received: [[UInt8]](), activations: 0))
    var received: [[UInt8]] { state.withLock { $0.received } }
    var activations: Int { state.withLock { $0.activations } }

    init(ats: [UInt8]) { self.ats = ats }

    func respond(to frame: [UInt8]) -> [UInt8]? {
        state.withLock { $0.received.append(frame) }
        return frame.count > 1 && frame[1] == 0xA4 ? [0x90, 0x00] : [0x6D, 0x00]
    }
    func activate() { state.withLock { $0.activations += 1 } }
}

@Suite("EmulatedPCSCReader: ATR and pseudo-APDUs")
struct PCSCReaderEmulationTests {
    @Test func storageCardATRNamesTheChip() throws {
        let cases: [(Type2Product, String)] = [
            (.ntag213, "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68"),
            (.ntag216, "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68"),
            (.ultralight, "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68"),
            (.ultralightC, "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 3A 00 00 00 00 51"),
            (.ultralightEV1MF0UL11, "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 3D 00 00 00 00 56"),
            (.ultralightEV1MF0UL21, "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 3D 00 00 00 00 56"),
        ]
        for (product, atr) in cases {
            let reader = EmulatedPCSCReader(profile: .acr122u, tag: try VirtualType2Tag(product: product, uid: T2.uid))
            #expect(reader.atr == T2.hex(atr), "\(product)")
        }
    }

    @Test func isoDEPATRCarriesHistoricalBytes() {
        // DESFire-like ATS: TL 06, T0 75 (TA TB TC present), 77 81 02, historical 80
        #expect(EmulatedPCSCReader.atr(for: EchoISODEPTag(ats: T2.hex("06 75 77 81 02 80"))) == T2.hex("3B 81 80 01 80 80"))
        #expect(EmulatedPCSCReader.atr(for: EchoISODEPTag(ats: T2.hex("01"))) == T2.hex("3B 80 80 01 01"))
        // T0 with only TB, two historical bytes; a TL longer than the ATS is clamped
        #expect(EmulatedPCSCReader.atr(for: EchoISODEPTag(ats: T2.hex("09 20 81 C1 05"))) == T2.hex("3B 82 80 01 C1 05 C7"))
    }

    @Test func noTagNoATRNoAnswer() {
        let reader = EmulatedPCSCReader(profile: .acr122u)
        #expect(reader.atr == nil)
        #expect(reader.transmit(T2.hex("FF CA 00 00 00")) == nil)
        #expect(throws: TagError.tagLost) { try EmulatedPCSCTransceiver(reader: reader).transceive(T2.hex("FF CA 00 00 00")) }
    }

    @Test func getDataUIDAndATS() throws {
        let t2 = EmulatedPCSCReader(profile: .acr122u, tag: try VirtualType2Tag(product: .ntag213, uid: T2.uid))
        #expect(t2.transmit(T2.hex("FF CA 00 00 00")) == T2.uid + [0x90, 0x00])
        #expect(t2.transmit(T2.hex("FF CA 01 00 00")) == T2.hex("6A 81"), "a Type 2 tag has no ATS")
        #expect(t2.transmit(T2.hex("FF CA 02 00 00")) == T2.hex("6A 81"))

        let iso = EchoISODEPTag(ats: T2.hex("06 75 77 81 02 80"))
        #expect(EmulatedPCSCReader(profile: .acr1252u, tag: iso).transmit(T2.hex("FF CA 01 00 00")) == T2.hex("06 75 77 81 02 80 90 00"))
        #expect(EmulatedPCSCReader(profile: .identiv, tag: iso).transmit(T2.hex("FF CA 01 00 00")) == T2.hex("80 90 00"),
                "PC/SC Part 3: historical bytes")
    }

    @Test func readBinaryPerProfile() throws {
        let tag = try VirtualType2Tag(product: .ntag213, uid: T2.uid)
        let page3to6 = T2.hex("E1 10 12 00 01 03 A0 0C 34 03 00 FE 00 00 00 00")
        let acr = EmulatedPCSCReader(profile: .acr122u, tag: tag)
        #expect(acr.transmit(T2.hex("FF B0 00 03 10")) == page3to6 + [0x90, 0x00])
        #expect(acr.transmit(T2.hex("FF B0 00 03 00")) == page3to6 + [0x90, 0x00], "Le 00 = 16")
        #expect(acr.transmit(T2.hex("FF B0 00 03 08")) == Array(page3to6.prefix(8)) + [0x90, 0x00])
        #expect(acr.transmit(T2.hex("FF B0 00 03 05")) == T2.hex("67 00"), "ACS: Le a multiple of 4")
        #expect(acr.transmit(T2.hex("FF B0 00 03 14")) == T2.hex("67 00"))
        let identiv = EmulatedPCSCReader(profile: .identiv, tag: tag)
        #expect(identiv.transmit(T2.hex("FF B0 00 03 10")) == T2.hex("E1 10 12 00 90 00"), "4 bytes whatever Le says")
        let generic = EmulatedPCSCReader(profile: .generic, tag: tag)
        #expect(generic.transmit(T2.hex("FF B0 00 03 05")) == Array(page3to6.prefix(5)) + [0x90, 0x00])
        #expect(generic.transmit(T2.hex("FF B0 00 2D 10")) == T2.hex("63 00"), "the tag NAKs")
        tag.activate()
        #expect(generic.transmit(T2.hex("FF B0 01 00 10")) == T2.hex("6A 81"), "block beyond FFh")
    }

    @Test func updateBinary() throws {
        let tag = try VirtualType2Tag(product: .ntag213, uid: T2.uid)
        let reader = EmulatedPCSCReader(profile: .generic, tag: tag)
        #expect(reader.transmit(T2.hex("FF D6 00 04 04 01 02 03 04")) == T2.hex("90 00"))
        #expect(T2.page(tag.memory, 4) == T2.hex("01 02 03 04"))
        #expect(reader.transmit(T2.hex("FF D6 00 04 03 01 02 03")) == T2.hex("67 00"))
        #expect(reader.transmit(T2.hex("FF D6 00 01 04 01 02 03 04")) == T2.hex("63 00"), "UID page refused")
    }

    @Test func directTransmitOnlyOnACR122U() throws {
        let tag = try VirtualType2Tag(product: .ntag213, uid: T2.uid)
        let acr = EmulatedPCSCReader(profile: .acr122u, tag: tag)
        #expect(acr.transmit(T2.hex("FF 00 00 00 03 D4 42 60")) == T2.hex("D5 43 00 00 04 04 02 01 00 0F 03 90 00"))
        #expect(acr.transmit(T2.hex("FF 00 00 00 05 D4 42 3A 03 04")) == T2.hex("D5 43 00 E1 10 12 00 01 03 A0 0C 90 00"))
        #expect(acr.transmit(T2.hex("FF 00 00 00 05 D4 42 3A 04 2D")) == T2.hex("D5 43 00 00 90 00"), "NAK inside the frame")
        #expect(acr.transmit(T2.hex("FF 00 00 00 04 D4 42 30 00")) == T2.hex("D5 43 01 90 00"), "mute tag: timeout")
        #expect(acr.transmit(T2.hex("FF 00 00 00 04 D4 4A 01 00")) == T2.hex("D5 4B 01 01 00 44 00 07 04 5A 2C 91 6E 3F 80 90 00"))
        #expect(acr.transmit(T2.hex("FF 00 00 00 04 D4 42 30 2C"))?.count == 21, "re-selected")
        #expect(acr.transmit(T2.hex("FF 00 00 00 05 D4 42 60")) == T2.hex("67 00"), "Lc disagrees with the data")
        #expect(EmulatedPCSCReader(profile: .identiv, tag: tag).transmit(T2.hex("FF 00 00 00 03 D4 42 60")) == T2.hex("6A 81"))
        #expect(EmulatedPCSCReader(profile: .acr1252u, tag: tag).transmit(T2.hex("FF 00 00 00 03 D4 42 60")) == T2.hex("6A 81"))
    }

    @Test func ledAndBuzzer() throws {
        let reader = EmulatedPCSCReader(profile: .acr122u, tag: try VirtualType2Tag(product: .ntag213, uid: T2.uid))
        // P2 0E: green on (mask bit 3, state bit 1), red mask set with state off
        #expect(reader.transmit(T2.hex("FF 00 40 0E 04 01 01 01 01")) == T2.hex("90 02"))
        #expect(reader.transmit(T2.hex("FF 00 40 05 04 01 01 01 01")) == T2.hex("90 03"), "red on, green untouched")
        #expect(reader.ledState == 0x03)
        #expect(reader.transmit(T2.hex("FF 00 40 05 03 01 01 01")) == T2.hex("67 00"))
        #expect(reader.transmit(T2.hex("FF 00 52 00 00")) == T2.hex("90 00"))
        #expect(reader.buzzerOnDetection == false)
        #expect(reader.transmit(T2.hex("FF 00 52 FF 00")) == T2.hex("90 00"))
        #expect(reader.buzzerOnDetection == true)
        let generic = EmulatedPCSCReader(profile: .generic, tag: try VirtualType2Tag(product: .ntag213, uid: T2.uid))
        #expect(generic.transmit(T2.hex("FF 00 40 0E 04 01 01 01 01")) == T2.hex("6A 81"))
    }

    @Test func unsupportedAPDUs() throws {
        let reader = EmulatedPCSCReader(profile: .acr122u, tag: try VirtualType2Tag(product: .ntag213, uid: T2.uid))
        #expect(reader.transmit(T2.hex("FF 82 00 00 06 FF FF FF FF FF FF")) == T2.hex("6D 00"), "LOAD KEYS: no INS for Type 2 here")
        #expect(reader.transmit(T2.hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00")) == T2.hex("6E 00"), "a storage card takes no APDU")
        #expect(reader.transmit(T2.hex("FF CA")) == T2.hex("67 00"))
    }

    @Test func isoDEPAPDUsPassThrough() {
        let iso = EchoISODEPTag(ats: T2.hex("06 75 77 81 02 80"))
        let plan = FaultPlan()
        let reader = EmulatedPCSCReader(profile: .acr1252u, tag: iso, plan: plan)
        #expect(iso.activations == 1, "inserting the tag activates it")
        #expect(reader.transmit(T2.hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00")) == T2.hex("90 00"))
        #expect(reader.transmit(T2.hex("FF B0 00 00 10")) == T2.hex("6A 81"), "no READ BINARY mapping for ISO-DEP")
        #expect(iso.received == [T2.hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00")])
        #expect(plan.log.count == 2)
        reader.reset()
        #expect(iso.activations == 2)
    }

    @Test func faultPlanAppliesToEveryTransmit() throws {
        let plan = FaultPlan(leaveFieldAfter: 2, faults: [0: .statusWord(0x6F, 0x00)])
        let reader = EmulatedPCSCReader(profile: .generic, tag: try VirtualType2Tag(product: .ntag213, uid: T2.uid), plan: plan)
        #expect(reader.transmit(T2.hex("FF CA 00 00 00")) == T2.hex("6F 00"))
        #expect(reader.transmit(T2.hex("FF CA 00 00 00")) == T2.uid + [0x90, 0x00])
        #expect(reader.transmit(T2.hex("FF CA 00 00 00")) == nil, "left the field")
        #expect(plan.log.count == 3)
    }

    @Test func readerNamesMapBackToProfiles() {
        for family in PCSCReaderProfile.Family.allCases {
            let reader = EmulatedPCSCReader(profile: PCSCReaderProfile(family: family))
            #expect(PCSCReaderProfile(readerName: reader.readerName).family == family)
        }
        #expect(PCSCReaderProfile(readerName: "ACS ACR122U PICC Interface 00 00") == .acr122u)
        #expect(PCSCReaderProfile(readerName: "ACS ACR1252 Dual Reader [ACR1252 Dual Reader PICC] 00 00") == .acr1252u)
        #expect(PCSCReaderProfile(readerName: "Identiv uTrust 3700 F CL Reader [uTrust 3700 F CL Reader] 00 00") == .identiv)
        #expect(PCSCReaderProfile(readerName: "SCM Microsystems Inc. SCL011 Contactless Reader 00 00") == .identiv)
        #expect(PCSCReaderProfile(readerName: "Virtual PCD 00 00") == .generic)
        #expect(PCSCReaderProfile(readerName: "") == .generic)
    }
}
