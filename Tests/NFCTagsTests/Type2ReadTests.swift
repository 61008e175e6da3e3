import Testing
import NFCTags
import TagEmulation

@Suite("Type2Tag: product detection and read command sequences")
struct Type2ReadTests {
    typealias Op = T2.Op

    static let products: [Type2Product] = [.ntag213, .ntag215, .ntag216]
    static let smallMessage = T2.message(20)

    /// Pages 3...last in the profile's READ steps.
    static func reads(through last: Int, step: Int) -> [Op] {
        stride(from: 3, through: last, by: step).map { Op.read($0) }
    }

    /// (product, message, expected ops for ACR122U, last page for READ profiles)
    static func cases() -> [(Type2Product, [UInt8], [Op], Int)] {
        [
            (.ntag213, smallMessage, [.getVersion, .fastRead(3, 39)], 10),
            (.ntag213, T2.message(137), [.getVersion, .fastRead(3, 39)], 39),
            (.ntag215, smallMessage, [.getVersion, .fastRead(3, 62)], 9),
            (.ntag215, T2.message(492), [.getVersion, .fastRead(3, 62), .fastRead(63, 122), .fastRead(123, 127)], 127),
            (.ntag216, smallMessage, [.getVersion, .fastRead(3, 62)], 9),
            (.ntag216, T2.message(868), [.getVersion, .fastRead(3, 62), .fastRead(63, 122), .fastRead(123, 182), .fastRead(183, 221)], 221),
        ]
    }

    @Test(arguments: 0 ..< 6)
    func exactSequencesPerProfile(index: Int) throws {
        let (product, message, acrOps, lastPage) = Self.cases()[index]
        let expectations: [(PCSCReaderProfile, [Op])] = [
            (.acr122u, acrOps),
            // Part 3 transparent exchange: the same raw commands, three APDUs each.
            (.identiv, acrOps),
            (.acr1252u, acrOps),
            (.omnikey, acrOps),
            (.springcard, acrOps),
            (.generic, Self.reads(through: lastPage, step: 4)),
        ]
        for (profile, ops) in expectations {
            let rig = try T2.rig(product, ndef: message, profile)
            #expect(try rig.type2Tag().readNDEF() == message, "\(product) \(profile)")
            #expect(rig.plan.log == T2.apdus(ops, profile), "\(product) \(message.count) bytes via \(profile)")
        }
        // An Identiv whose firmware refuses the transparent exchange: 4-byte reads after one refusal.
        let rig = T2.refusingIdentiv(try VirtualType2Tag(product: product, uid: T2.uid, ndef: message))
        #expect(try rig.type2Tag().readNDEF() == message)
        #expect(rig.plan.log == [PCSCTransparentExchange.startSession] + T2.apdus(Self.reads(through: lastPage, step: 1), .identiv))
    }

    @Test func literalACR122USequenceForTheZebraTag() throws {
        let rig = T2.rig(VirtualType2Tag.zebraZQ320(), .acr122u)
        let message = try rig.type2Tag().readNDEF()
        #expect(message.prefix(5) == T2.hex("D1 01 61 55 01")[...])
        #expect(message.count == 101)
        #expect(rig.plan.log == [T2.hex("FF 00 00 00 03 D4 42 60"), T2.hex("FF 00 00 00 05 D4 42 3A 03 27")])
    }

    @Test func literalIdentivSequenceForASmallMessage() throws {
        let rig = T2.refusingIdentiv(try VirtualType2Tag(product: .ntag215, uid: T2.uid, ndef: T2.hex("D1 01 01 55 00")))
        #expect(try rig.type2Tag().readNDEF() == T2.hex("D1 01 01 55 00"))
        #expect(rig.plan.log == [T2.hex("FF C2 00 00 02 81 00"), T2.hex("FF B0 00 03 04"), T2.hex("FF B0 00 04 04"), T2.hex("FF B0 00 05 04")])
        // Where the transparent exchange works: GET_VERSION and FAST_READ, three APDUs each.
        let raw = try T2.rig(.ntag215, ndef: T2.hex("D1 01 01 55 00"), .identiv)
        #expect(try raw.type2Tag().readNDEF() == T2.hex("D1 01 01 55 00"))
        #expect(raw.plan.log == [T2.hex("FF C2 00 00 02 81 00"), T2.hex("FF C2 00 01 03 95 01 60 00"), T2.hex("FF C2 00 00 02 82 00"),
                                 T2.hex("FF C2 00 00 02 81 00"), T2.hex("FF C2 00 01 05 95 03 3A 03 3E 00"), T2.hex("FF C2 00 00 02 82 00")])
    }

    @Test func readsMeetTheTheoreticalMinimum() throws {
        // minimum = [1 GET_VERSION] + ceil(bytes of pages 3...last / bytes per exchange)
        for (product, message, _, lastPage) in Self.cases() {
            let bytes = (lastPage - 3 + 1) * 4
            for (profile, perExchange, versionExchanges) in [(PCSCReaderProfile.acr122u, 240, 1), (.identiv, 240, 1), (.generic, 16, 0)] {
                let rig = try T2.rig(product, ndef: message, profile)
                _ = try rig.type2Tag().readNDEF()
                let minimum = versionExchanges + (bytes + perExchange - 1) / perExchange
                if profile.rawCommandPath != .none {
                    // the read-ahead FAST_READ covers up to the data area end, never less than needed;
                    // a transparent exchange costs 3 APDUs per raw command
                    let apdusPerRaw = profile.supportsTransparentExchange ? 3 : 1
                    #expect(rig.plan.exchangeCount <= apdusPerRaw * max(minimum, 2), "\(product) \(message.count)")
                } else {
                    #expect(rig.plan.exchangeCount == minimum, "\(product) \(message.count) \(profile)")
                }
            }
        }
    }

    @Test func fastReadLimitOfANativeLink() throws {
        let tag = try VirtualType2Tag(product: .ntag216, uid: T2.uid, ndef: T2.message(868))
        let plan = FaultPlan()
        let t2 = Type2Tag(link: NativeType2Link(tag: tag, plan: plan, fastReadLimit: 256))
        #expect(try t2.readNDEF() == T2.message(868))
        #expect(plan.log == [T2.hex("60"), T2.hex("3A 03 42"), T2.hex("3A 43 82"), T2.hex("3A 83 C2"), T2.hex("3A C3 DD")])
    }

    @Test func queryThenReadCostsNoExtraExchange() throws {
        let rig = try T2.rig(.ntag213, ndef: Self.smallMessage, .generic)
        let tag = rig.type2Tag()
        let status = try tag.queryNDEFStatus()
        #expect(status.status == .readWrite)
        #expect(status.capacity == 137)
        #expect(rig.plan.exchangeCount == 1)
        #expect(try tag.readNDEF() == Self.smallMessage)
        #expect(rig.plan.log == T2.apdus([.read(3), .read(7)], .generic))
    }

    @Test func emptyMessage() throws {
        let rig = T2.refusingIdentiv(VirtualType2Tag.blankNTAG215())
        #expect(try rig.type2Tag().readNDEF() == [])
        #expect(rig.plan.log == [PCSCTransparentExchange.startSession] + T2.apdus([.read(3), .read(4)], .identiv))
    }

    // MARK: Detection

    @Test func productFromGetVersion() throws {
        for product in [Type2Product.ntag213, .ntag215, .ntag216, .ultralightEV1MF0UL11, .ultralightEV1MF0UL21] {
            let rig = try T2.rig(product, ndef: [], .acr122u)
            #expect(try rig.type2Tag().product == product)
            #expect(rig.plan.log == T2.apdus([.getVersion], .acr122u), "GET_VERSION alone decides")
        }
    }

    @Test func ultralightCIsReselectedAfterGetVersion() throws {
        let rig = try T2.rig(.ultralightC, ndef: Self.smallMessage, .acr122u)
        let tag = rig.type2Tag()
        let info = try tag.inspect()
        #expect(info.product == .ultralightC)
        #expect(info.version == nil)
        #expect(info.capacity == 137, "NXP's Lock Control TLV 01 03 A0 10 44 first")
        #expect(try tag.readNDEF() == Self.smallMessage)
        #expect(rig.plan.log == T2.apdus([.getVersion, .reselect, .read(3), .read(7)], .acr122u), "no FAST_READ for Ultralight C")
    }

    @Test func productWithoutGetVersionComesFromTheCC() throws {
        let cases: [(VirtualType2Tag, Type2Product)] = [
            (VirtualType2Tag.blankNTAG213(), .ntag213),
            (VirtualType2Tag.blankNTAG215(), .ntag215),
            (VirtualType2Tag.blankNTAG216(), .ntag216),
            (try VirtualType2Tag(product: .ultralightC, uid: T2.uid, ndef: []), .ntag213), // 0x12 is ambiguous
            (try VirtualType2Tag(product: .ultralightEV1MF0UL11, uid: T2.uid, ndef: []), .ultralight),
            (try VirtualType2Tag(product: .ultralightEV1MF0UL21, uid: T2.uid, ndef: []), .ultralightEV1MF0UL21),
            (try VirtualType2Tag(product: .ultralight, uid: T2.uid), .unknown), // blank CC
        ]
        for (tag, expected) in cases {
            let rig = T2.refusingIdentiv(tag)
            #expect(try rig.type2Tag().product == expected, "\(tag.product)")
            #expect(rig.plan.log == [PCSCTransparentExchange.startSession] + T2.apdus([.read(3)], .identiv))
        }
    }

    @Test func versionTable() {
        #expect(Type2Product(version: T2.hex("00 04 04 02 01 00 0F 03")) == .ntag213)
        #expect(Type2Product(version: T2.hex("00 04 03 02 01 00 0B 03")) == .ultralightEV1MF0UL11, "50 pF subtype")
        #expect(Type2Product(version: T2.hex("00 04 04 02 01 00 0B 03")) == nil, "NTAG210 is not in the table")
        #expect(Type2Product(version: T2.hex("00 05 04 02 01 00 0F 03")) == nil, "not NXP")
        #expect(Type2Product(version: T2.hex("00 04 04 02 01 00 0F")) == nil)
        for product in Type2Product.allCases {
            if let v = product.versionBytes { #expect(Type2Product(version: v) == product) }
        }
    }

    @Test func unknownNXPChipIsGenericButFastReads() throws {
        // An NTAG210 answers GET_VERSION with a size the table does not know: generic class, and
        // FAST_READ still used because every NXP NTAG implements it.
        let memory = try VirtualType2Tag(product: .ntag213, uid: T2.uid, ndef: Self.smallMessage).memory
        final class NTAG210Link: Type2Link {
            let inner: NativeType2Link
            init(_ inner: NativeType2Link) { self.inner = inner }
            var fastReadLimit: Int { inner.fastReadLimit }
            var canSendRawCommands: Bool { true }
            func read(page: Int) throws(TagError) -> [UInt8] { try inner.read(page: page) }
            func fastRead(from start: Int, to end: Int) throws(TagError) -> [UInt8] { try inner.fastRead(from: start, to: end) }
            func write(page: Int, data: [UInt8]) throws(TagError) { try inner.write(page: page, data: data) }
            func getVersion() throws(TagError) -> [UInt8] { T2.hex("00 04 04 01 01 00 0B 03") }
        }
        let plan = FaultPlan()
        let tag = Type2Tag(link: NTAG210Link(NativeType2Link(tag: try VirtualType2Tag(product: .ntag213, memory: memory), plan: plan, fastReadLimit: 64)))
        let info = try tag.inspect()
        #expect(info.product == .unknown)
        #expect(info.version == T2.hex("00 04 04 01 01 00 0B 03"))
        #expect(try tag.readNDEF() == Self.smallMessage)
        // size unknown until the CC: 4 pages first (as a READ would), then what the message needs
        #expect(plan.log == [T2.hex("3A 03 06"), T2.hex("3A 07 0A")])
    }

    @Test func ccLargerThanTheChipIsRejected() throws {
        var memory = VirtualType2Tag.blankNTAG213().memory
        memory.replaceSubrange(12 ..< 16, with: T2.hex("E1 10 6D 00"))
        let rig = T2.rig(try VirtualType2Tag(product: .ntag213, memory: memory), .acr122u)
        #expect(throws: TagError.invalidTagData("CC data area of 872 bytes exceeds the NTAG213's 144 bytes")) {
            try rig.type2Tag().readNDEF()
        }
    }

    @Test func statusAndErrorsOfUnformattedTags() throws {
        let blank = T2.rig(try VirtualType2Tag(product: .ultralight, uid: T2.uid), .generic)
        let status = try blank.type2Tag().queryNDEFStatus()
        #expect(status.status == .notSupported)
        #expect(status.capacity == 0)
        #expect(throws: TagError.notNDEFFormatted("CC magic is 00, not E1")) { try blank.type2Tag().readNDEF() }

        // Valid CC, lock control TLV, then only NULL bytes: no NDEF TLV.
        var memory = VirtualType2Tag.blankNTAG213().memory
        memory.replaceSubrange(21 ..< 24, with: [0, 0, 0])
        let noTLV = T2.rig(try VirtualType2Tag(product: .ntag213, memory: memory), .generic)
        #expect(throws: TagError.notNDEFFormatted("the data area holds no NDEF message TLV")) { try noTLV.type2Tag().readNDEF() }
        let info = try noTLV.type2Tag().inspect()
        #expect(info.messageLength == nil)
        #expect(info.capacity == 137)
    }
}
