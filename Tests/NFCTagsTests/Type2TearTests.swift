import Testing
import NFCTags
import TagEmulation

/// Cuts the tag off after every exchange of a write and checks what a reader sees when it comes back.
@Suite("Type2Tag: torn writes leave old, empty or new")
struct Type2TearTests {
    enum Outcome: Hashable { case old, empty, new }

    /// Runs `write` with the tag leaving after k exchanges, for every k up to the uninterrupted
    /// count; after each tear the tag returns and a fresh object reads it. Returns the outcomes seen.
    @discardableResult
    static func tearEverywhere(
        _ make: () throws -> VirtualType2Tag, profile: PCSCReaderProfile,
        old: [UInt8]?, new: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Set<Outcome> {
        let clean = T2.rig(try make(), profile)
        try clean.type2Tag().writeNDEF(new)
        let total = clean.plan.exchangeCount
        #expect(try clean.type2Tag().readNDEF() == new, sourceLocation: sourceLocation)

        var seen: Set<Outcome> = []
        for k in 0 ..< total {
            let rig = T2.rig(try make(), profile)
            rig.plan.reset(leaveFieldAfter: k)
            #expect(throws: TagError.tagLost, "tear after \(k)", sourceLocation: sourceLocation) {
                try rig.type2Tag().writeNDEF(new)
            }
            rig.putBack()
            let read: Result<[UInt8], Error> = Result { try rig.type2Tag().readNDEF() }
            switch read {
            case let .success(bytes) where bytes == new: seen.insert(.new)
            case let .success(bytes) where bytes == old: seen.insert(.old)
            case let .success(bytes) where bytes.isEmpty: seen.insert(.empty)
            case .failure(TagError.notNDEFFormatted) where old == nil: seen.insert(.old) // had no NDEF TLV
            default:
                Issue.record("tear after exchange \(k) of \(total): read \(read)", sourceLocation: sourceLocation)
            }
        }
        return seen
    }

    static func make(_ product: Type2Product, _ message: [UInt8]) -> () throws -> VirtualType2Tag {
        { try VirtualType2Tag(product: product, uid: T2.uid, ndef: message) }
    }

    static let transitions: [(String, Type2Product, Int, Int)] = [
        ("grow, 1-byte lengths", .ntag213, 20, 137),
        ("shrink, 1-byte lengths", .ntag213, 137, 20),
        ("to empty", .ntag213, 100, 0),
        ("from empty", .ntag213, 0, 60),
        ("1-byte to 3-byte at the boundary", .ntag215, 254, 255),
        ("3-byte to 1-byte at the boundary", .ntag215, 255, 254),
        ("grow across the boundary", .ntag215, 100, 400),
        ("shrink across the boundary", .ntag215, 492, 30),
        ("3-byte to 3-byte", .ntag216, 300, 868),
    ]

    @Test(arguments: 0 ..< 9)
    func transitions(index: Int) throws {
        let (name, product, oldSize, newSize) = Self.transitions[index]
        let old = T2.message(oldSize)
        let new = T2.message(newSize, seed: 9)
        // Identiv (one page per exchange) costs O(exchanges²) here: kept to the smaller cases.
        let profiles: [PCSCReaderProfile] = newSize + oldSize <= 600 ? [.generic, .acr122u, .identiv] : [.generic, .acr122u]
        for profile in profiles {
            let seen = try Self.tearEverywhere(Self.make(product, old), profile: profile, old: old, new: new)
            #expect(seen.contains(.old), "\(name) via \(profile)")
            if !old.isEmpty && !new.isEmpty {
                #expect(seen.contains(.empty), "\(name) via \(profile): the commit step is reached")
            }
        }
    }

    @Test func reservedAreasInsideTheMessage() throws {
        // The layout of Type2LayoutTests: lock bits at 40-41, reserved bytes at 60-63.
        let old = T2.message(30)
        var tlvs = T2.hex("01 03 A0 10 32  02 03 F0 04 02  03 1E") + old[0 ..< 12] + T2.hex("AA BB")
        tlvs += old[12 ..< 30] + T2.hex("CC DD EE FF FE")
        var image = try VirtualType2Tag(product: .ntag213, uid: T2.uid).memory
        image.replaceSubrange(16 ..< 16 + tlvs.count, with: tlvs)
        let seen = try Self.tearEverywhere({ try VirtualType2Tag(product: .ntag213, memory: image) },
                                           profile: .generic, old: old, new: T2.message(90, seed: 2))
        #expect(seen == [.old, .empty], "new only once the last exchange (the commit) arrives")
    }

    @Test func newTLVStraddlingPages() throws {
        var image = VirtualType2Tag.blankNTAG215().memory
        image.replaceSubrange(16 ..< 20, with: T2.hex("FD 01 AA FE"))
        let seen = try Self.tearEverywhere({ try VirtualType2Tag(product: .ntag215, memory: image) },
                                           profile: .identiv, old: nil, new: T2.message(40))
        #expect(seen == [.old, .empty])
    }

    @Test func garbledRepliesDuringAWriteStillLeaveOldEmptyOrNew() throws {
        // The tag executes the WRITE but the reply is damaged: the write stops with a typed error.
        let old = T2.message(50)
        let new = T2.message(200, seed: 4)
        let clean = try T2.rig(.ntag215, ndef: old, .generic)
        try clean.type2Tag().writeNDEF(new)
        let total = clean.plan.exchangeCount
        // (A READ answered 63 00 is retried after reconnecting, by design: 6A 81 stands for a refusal here.)
        let faults: [InjectedFault] = [.truncate(keep: 1), .append([0xAA]), .replace([0x6F, 0x00]), .statusWord(0x6A, 0x81)]
        for k in 0 ..< total {
            for fault in faults {
                let rig = try T2.rig(.ntag215, ndef: old, .generic)
                rig.plan.reset(faults: [k: fault])
                #expect(throws: TagError.self, "\(fault) at \(k)") { try rig.type2Tag().writeNDEF(new) }
                rig.putBack()
                let read = try rig.type2Tag().readNDEF()
                #expect(read == old || read == [] || read == new, "\(fault) at \(k)")
            }
        }
    }
}
