import NFCTags
import Synchronization

/// A MIFARE Classic card's memory and its rules (MF1S50/MF1S70 datasheets §8.6–8.7), without
/// Crypto1: authentication compares the key with the sector trailer's key A or B; reads and
/// writes obey the access bits of the sector last authenticated, and a trailer whose access bits
/// disagree with their inverted copy blocks its sector, as on the chip. A refused key halts the
/// card (§8.5): it answers nothing until it is activated again (a reader's re-selection). Key A (and key B where the
/// conditions hide it) reads back as zeros. Tests reach it through `VirtualMifareClassicLink`.
public final class VirtualMifareClassic: VirtualTag, Sendable {
    public let layout: MifareClassicLayout
    public let uid: [UInt8]

    private struct State {
        var blocks: [[UInt8]]
        var session: (sector: Int, keyB: Bool)?
        var halted = false
        var writes = 0
        /// The card stops answering after this many more block writes (a card pulled mid-write).
        var writesBeforeLeaving: Int?
    }

    private let state: Mutex<State>

    public init(layout: MifareClassicLayout, uid: [UInt8] = [0x5C, 0x2A, 0x9E, 0x41], blocks: [[UInt8]]) {
        precondition(blocks.count == layout.blockCount && blocks.allSatisfy { $0.count == 16 })
        self.layout = layout
        self.uid = uid
        state = Mutex(State(blocks: blocks))
    }

    /// A blank card: transport keys `FF…FF`, access bits `FF 07 80`, GPB `69`, zeros elsewhere.
    public static func blank(_ layout: MifareClassicLayout, uid: [UInt8] = [0x5C, 0x2A, 0x9E, 0x41]) -> VirtualMifareClassic {
        var blocks = [[UInt8]](repeating: [UInt8](repeating: 0, count: 16), count: layout.blockCount)
        blocks[0] = uid + [uid.reduce(0, ^), 0x08, 0x04, 0x00] + [UInt8](repeating: 0x62, count: 8)
        for sector in 0..<layout.sectorCount {
            blocks[layout.trailer(ofSector: sector)] = MifareClassicKey.transport + [0xFF, 0x07, 0x80, 0x69] + MifareClassicKey.transport
        }
        return VirtualMifareClassic(layout: layout, uid: uid, blocks: blocks)
    }

    /// A card formatted as NXP AN1305 says, holding `message`: the MAD (key A `A0…A5`, `78 77 88`,
    /// GPB `C1`/`C2`), every other sector NDEF (key A `D3 F7…`, `7F 07 88`, GPB `40`), key B `FF…FF`.
    public static func ndefFormatted(_ layout: MifareClassicLayout, message: [UInt8]?, uid: [UInt8] = [0x5C, 0x2A, 0x9E, 0x41]) -> VirtualMifareClassic {
        let card = blank(layout, uid: uid)
        card.state.withLock { s in
            let (mad1, mad2) = MifareApplicationDirectory.ndefFormatted(layout)
            s.blocks[1] = Array(mad1[0..<16])
            s.blocks[2] = Array(mad1[16..<32])
            let madTrailer = MifareClassicKey.mad + MifareClassicAccessBits.madReadWrite.bytes
            s.blocks[3] = madTrailer + [mad2 == nil ? 0xC1 : 0xC2] + MifareClassicKey.transport
            if let mad2 {
                for i in 0..<3 { s.blocks[64 + i] = Array(mad2[i * 16 ..< (i + 1) * 16]) }
                s.blocks[67] = madTrailer + [0xC2] + MifareClassicKey.transport
            }
            for sector in 1..<layout.sectorCount where sector != 16 {
                s.blocks[layout.trailer(ofSector: sector)] = MifareClassicKey.nfcForum + MifareClassicAccessBits.ndefReadWrite.bytes
                    + [0x40] + MifareClassicKey.transport
            }
        }
        if let message, let area = try? MifareClassicNDEFArea(mad: card.directory(), layout: layout),
           let image = try? area.image(of: message) {
            card.state.withLock { s in
                for (i, block) in area.blocks.enumerated() { s.blocks[block] = Array(image[i * 16 ..< (i + 1) * 16]) }
            }
        }
        return card
    }

    private func directory() throws -> MifareApplicationDirectory {
        let b = state.withLock { $0.blocks }
        return try MifareApplicationDirectory(gpb: b[3][9], mad1: b[1] + b[2], mad2: layout.sectorCount > 16 ? b[64] + b[65] + b[66] : nil,
                                              layout: layout)
    }

    /// The whole memory, as stored (keys included).
    public var blocks: [[UInt8]] { state.withLock { $0.blocks } }
    public func block(_ n: Int) -> [UInt8] { state.withLock { $0.blocks[n] } }
    public func setBlock(_ n: Int, _ data: [UInt8]) { state.withLock { $0.blocks[n] = data } }
    /// Block writes so far.
    public var writeCount: Int { state.withLock { $0.writes } }
    /// After `count` more block writes the card answers nothing (left the field).
    public func leave(afterWrites count: Int?) { state.withLock { $0.writesBeforeLeaving = count } }

    // MARK: VirtualTag: MIFARE frames as a PN53x passes them (the chip does Crypto1)

    /// `00 04` 1K and Mini, `00 02` 4K; SAK `08`, `18`, `09` (NXP AN10833).
    public var atqa: [UInt8] { layout == .classic4K ? [0x00, 0x02] : [0x00, 0x04] }
    public var sak: UInt8 { layout == .classic4K ? 0x18 : layout == .mini ? 0x09 : 0x08 }
    public var ats: [UInt8]? { nil }
    public func activate() { state.withLock { $0.session = nil; $0.halted = false } }

    /// `60|61 block key(6) uid(4)` authenticate, `30 block` read, `A0 block data(16)` write:
    /// `0A` (ACK) or the block's bytes; nil (no answer) for a refusal, as the card halts.
    public func respond(to frame: [UInt8]) -> [UInt8]? {
        guard frame.count >= 2 else { return nil }
        let block = Int(frame[1])
        do throws(TagError) {
            switch frame[0] {
            case 0x60, 0x61:
                guard frame.count == 12, Array(frame[8..<12]) == Array(uid.prefix(4)) else { return nil }
                try authenticate(block: block, key: Array(frame[2..<8]), keyB: frame[0] == 0x61)
                return [0x0A]
            case 0x30 where frame.count == 2: return try read(block)
            case 0xA0 where frame.count == 18:
                try write(block, Array(frame[2...]))
                return [0x0A]
            default: return nil
            }
        } catch {
            return nil
        }
    }

    // MARK: The card's commands

    func authenticate(block: Int, key: [UInt8], keyB: Bool) throws(TagError) {
        try state.withLock { s throws(TagError) in
            guard s.writesBeforeLeaving != 0, !s.halted else { throw TagError.tagLost }
            s.session = nil
            s.halted = true  // until the key is accepted below
            guard let sector = layout.sector(ofBlock: block) else { throw TagError.authenticationFailed(sector: -1) }
            let trailer = s.blocks[layout.trailer(ofSector: sector)]
            guard let access = try? MifareClassicAccessBits(bytes: Array(trailer[6...8])) else {
                throw TagError.authenticationFailed(sector: sector)  // a blocked sector
            }
            // Key B cannot authenticate where the conditions make it readable (000, 010, 001).
            if keyB, access.keyAReadsKeyB { throw TagError.authenticationFailed(sector: sector) }
            guard (keyB ? Array(trailer[10...15]) : Array(trailer[0...5])) == key else { throw TagError.authenticationFailed(sector: sector) }
            s.session = (sector, keyB)
            s.halted = false
        }
    }

    func read(_ block: Int) throws(TagError) -> [UInt8] {
        try state.withLock { s throws(TagError) in
            guard s.writesBeforeLeaving != 0, !s.halted else { throw TagError.tagLost }
            let (sector, access) = try Self.session(s, layout, block)
            var data = s.blocks[block]
            if block == layout.trailer(ofSector: sector) {
                for i in 0..<6 { data[i] = 0 }  // key A never reads back
                if !access.keyAReadsKeyB { for i in 10..<16 { data[i] = 0 } }
                return data
            }
            let c = access.conditions[Self.group(block, sector: sector, layout)]
            let readable = c == 0b111 ? false : ([0b011, 0b101].contains(c) ? s.session!.keyB : true)
            guard readable else { throw TagError.status(sw1: 0x69, sw2: 0x82) }
            return data
        }
    }

    func write(_ block: Int, _ data: [UInt8]) throws(TagError) {
        try state.withLock { s throws(TagError) in
            guard s.writesBeforeLeaving != 0, !s.halted else { throw TagError.tagLost }
            guard data.count == 16 else { throw TagError.status(sw1: 0x67, sw2: 0x00) }
            let (sector, access) = try Self.session(s, layout, block)
            guard block != 0 else { throw TagError.status(sw1: 0x69, sw2: 0x82) }  // the manufacturer block
            let keyB = s.session!.keyB
            let allowed: Bool
            if block == layout.trailer(ofSector: sector) {
                switch access.conditions[3] {
                case 0b000, 0b001: allowed = !keyB
                case 0b011: allowed = keyB
                default: allowed = false
                }
            } else {
                switch access.conditions[Self.group(block, sector: sector, layout)] {
                case 0b000: allowed = true
                case 0b100, 0b110, 0b011: allowed = keyB
                default: allowed = false
                }
            }
            guard allowed else { throw TagError.status(sw1: 0x69, sw2: 0x82) }
            s.blocks[block] = data
            s.writes += 1
            if let left = s.writesBeforeLeaving { s.writesBeforeLeaving = left - 1 }
        }
    }

    private static func session(_ s: State, _ layout: MifareClassicLayout, _ block: Int) throws(TagError) -> (Int, MifareClassicAccessBits) {
        guard let session = s.session, layout.sector(ofBlock: block) == session.sector else {
            throw TagError.status(sw1: 0x69, sw2: 0x82)  // not authenticated for this block
        }
        let trailer = s.blocks[layout.trailer(ofSector: session.sector)]
        guard let access = try? MifareClassicAccessBits(bytes: Array(trailer[6...8])) else { throw TagError.status(sw1: 0x69, sw2: 0x82) }
        return (session.sector, access)
    }

    /// The access group of a data block: its index in a 4-block sector, a fifth of a 16-block one.
    private static func group(_ block: Int, sector: Int, _ layout: MifareClassicLayout) -> Int {
        let index = block - layout.firstBlock(ofSector: sector)
        return layout.blocks(inSector: sector) == 4 ? index : index / 5
    }
}

/// The card in-process, as a reader's link would hand it over.
public final class VirtualMifareClassicLink: MifareClassicLink {
    public let card: VirtualMifareClassic
    /// Every command, in order: `auth A 3`, `read 1`, `write 4`.
    public private(set) var log: [String] = []

    public init(_ card: VirtualMifareClassic) { self.card = card }

    /// A refused key halts the card: the link wakes it, as a reader re-selecting it does.
    public func authenticate(block: Int, key: [UInt8], keyB: Bool) throws(TagError) {
        log.append("auth \(keyB ? "B" : "A") \(block)")
        do throws(TagError) {
            try card.authenticate(block: block, key: key, keyB: keyB)
        } catch {
            if case .authenticationFailed = error { card.activate() }
            throw error
        }
    }

    public func readBlock(_ block: Int) throws(TagError) -> [UInt8] {
        log.append("read \(block)")
        return try card.read(block)
    }

    public func writeBlock(_ block: Int, _ data: [UInt8]) throws(TagError) {
        log.append("write \(block)")
        try card.write(block, data)
    }
}
