import Testing
@testable import NFCTags
import NDEF
import TagEmulation

/// Shared fixtures of the Type 2 / PC/SC reader tests.
enum T2 {
    static func hex(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
        guard let bytes = [UInt8](hex: text) else {
            Issue.record("bad hex literal: \(text)", sourceLocation: sourceLocation)
            return []
        }
        return bytes
    }

    static let uid: [UInt8] = [0x04, 0x5A, 0x2C, 0x91, 0x6E, 0x3F, 0x80]

    /// `n` message bytes: a counting pattern that never repeats within 255 bytes.
    static func message(_ n: Int, seed: Int = 0) -> [UInt8] {
        (0 ..< n).map { UInt8(truncatingIfNeeded: $0 * 7 + seed * 13 + 1) }
    }

    /// Largest messages: NTAG213 (144 − 5 lock TLV − 2), NTAG215 (496 − 4), NTAG216 (872 − 4).
    static func fullSize(_ product: Type2Product) -> Int {
        switch product {
        case .ntag213: return 137
        case .ntag215: return 492
        case .ntag216: return 868
        default: return 0
        }
    }

    /// A virtual tag on an emulated reader of `profile`, and the objects a test looks at.
    struct Rig {
        let tag: VirtualType2Tag
        let reader: EmulatedPCSCReader
        var plan: FaultPlan { reader.plan }
        /// A fresh tag object (a new connection: nothing cached).
        func type2Tag() -> Type2Tag { Type2Tag(link: reader.type2Link()) }
        /// The tag comes back after leaving the field.
        func putBack() {
            plan.reset()
            tag.activate()
        }
    }

    /// An Identiv reader whose firmware refuses the transparent exchange: one refused start of
    /// session, then 4-byte READ BINARYs only.
    static func refusingIdentiv(_ tag: VirtualType2Tag) -> Rig {
        let rig = rig(tag, .identiv)
        rig.reader.refusesTransparentExchange = true
        return rig
    }

    static func rig(_ tag: VirtualType2Tag, _ profile: PCSCReaderProfile) -> Rig {
        Rig(tag: tag, reader: EmulatedPCSCReader(profile: profile, tag: tag))
    }

    static func rig(_ product: Type2Product, ndef: [UInt8]? = nil, _ profile: PCSCReaderProfile) throws -> Rig {
        let tag = try ndef.map { try VirtualType2Tag(product: product, uid: uid, ndef: $0) }
            ?? VirtualType2Tag(product: product, uid: uid)
        return rig(tag, profile)
    }

    /// One Type 2 operation as a test expects to see it on the wire.
    enum Op {
        case getVersion
        case reselect
        case fastRead(Int, Int)
        case read(Int)
        case write(Int, [UInt8])
    }

    /// The APDUs of `ops` for `profile` (formats pinned by literal-hex tests in PCSCReaderLinkTests).
    /// Readers with the PC/SC Part 3 transparent exchange frame raw commands as start / transceive /
    /// end, and re-present a mute tag by a card reset (no APDU).
    static func apdus(_ ops: [Op], _ profile: PCSCReaderProfile) -> [[UInt8]] {
        if profile.supportsTransparentExchange {
            return ops.flatMap { op -> [[UInt8]] in
                func raw(_ frame: [UInt8]) -> [[UInt8]] {
                    [PCSCTransparentExchange.startSession, [0xFF, 0xC2, 0x00, 0x01, UInt8(frame.count + 2), 0x95, UInt8(frame.count)] + frame + [0x00],
                     PCSCTransparentExchange.endSession]
                }
                switch op {
                case .getVersion: return raw([0x60])
                case .reselect: return []
                case let .fastRead(s, e): return raw([0x3A, UInt8(s), UInt8(e)])
                case let .read(p): return [[0xFF, 0xB0, 0x00, UInt8(p), profile.readBinaryLength]]
                case let .write(p, d): return [[0xFF, 0xD6, 0x00, UInt8(p), 0x04] + d]
                }
            }
        }
        return ops.map { op in
            switch op {
            case .getVersion: return [0xFF, 0x00, 0x00, 0x00, 0x03, 0xD4, 0x42, 0x60]
            case .reselect: return [0xFF, 0x00, 0x00, 0x00, 0x04, 0xD4, 0x4A, 0x01, 0x00]
            case let .fastRead(s, e): return [0xFF, 0x00, 0x00, 0x00, 0x05, 0xD4, 0x42, 0x3A, UInt8(s), UInt8(e)]
            case let .read(p): return [0xFF, 0xB0, 0x00, UInt8(p), profile.readBinaryLength]
            case let .write(p, d): return [0xFF, 0xD6, 0x00, UInt8(p), 0x04] + d
            }
        }
    }

    /// A memory image: `base` with `bytes` written at `address`.
    static func image(_ base: [UInt8], _ bytes: [UInt8], at address: Int) -> [UInt8] {
        var m = base
        m.replaceSubrange(address ..< address + bytes.count, with: bytes)
        return m
    }

    static func page(_ memory: [UInt8], _ page: Int) -> [UInt8] { Array(memory[page * 4 ..< page * 4 + 4]) }
}

/// A `Type2Link` that sends native frames straight to a virtual tag (as the libnfc backend does),
/// with a configurable FAST_READ limit, through a `FaultPlan`.
final class NativeType2Link: Type2Link {
    let tag: VirtualType2Tag
    let plan: FaultPlan
    let fastReadLimit: Int
    let canSendRawCommands: Bool

    init(tag: VirtualType2Tag, plan: FaultPlan = FaultPlan(), fastReadLimit: Int = 0, raw: Bool = true) {
        self.tag = tag
        self.plan = plan
        self.fastReadLimit = fastReadLimit
        self.canSendRawCommands = raw
    }

    private func exchange(_ frame: [UInt8]) throws(TagError) -> [UInt8] {
        guard let reply = plan.exchange(frame, answer: { tag.respond(to: $0) }) else { throw TagError.tagLost }
        return reply
    }

    func read(page: Int) throws(TagError) -> [UInt8] {
        let r = try exchange([0x30, UInt8(page)])
        if r.count == 1 { throw TagError.nak(r[0]) }
        return r
    }
    func fastRead(from start: Int, to end: Int) throws(TagError) -> [UInt8] {
        let r = try exchange([0x3A, UInt8(start), UInt8(end)])
        if r.count == 1 { throw TagError.nak(r[0]) }
        return r
    }
    func write(page: Int, data: [UInt8]) throws(TagError) {
        let r = try exchange([0xA2, UInt8(page)] + data)
        guard r == [0x0A] else { throw TagError.nak(r.first ?? 0) }
    }
    func getVersion() throws(TagError) -> [UInt8] {
        do {
            return try exchange([0x60])
        } catch TagError.tagLost {
            tag.activate() // libnfc would re-select the target
            throw TagError.unsupported("GET_VERSION")
        }
    }
}
