import Foundation
import NFCTags
import Synchronization

/// A byte-accurate NFC Forum Type 2 chip (NTAG213/215/216, MIFARE Ultralight, Ultralight C,
/// Ultralight EV1) answering native frames without CRC (docs/tags-and-readers.md §1):
///
/// - READ `30 pp` → 16 bytes, wrapping around at the end of the readable pages; PWD/PACK read 00.
/// - FAST_READ `3A s e` (NTAG, EV1) → 4·(e−s+1) bytes; a range outside memory → NAK.
/// - GET_VERSION `60` (NTAG, EV1) → 8 bytes.
/// - WRITE `A2 pp d0 d1 d2 d3` → ACK `0A`, or NAK `00` for UID pages, locked pages, or beyond memory.
///   Page 2 ORs the static lock bits (bytes 0-1 ignored, block-lock bits freeze lock bits),
///   page 3 (CC) and the dynamic lock page OR their bits (OTP).
/// - A NAK, an unsupported command (GET_VERSION or FAST_READ on Ultralight / Ultralight C, AUTH,
///   anything unknown) or a malformed frame leaves the tag mute (no answer) until `activate()`,
///   as the real chips drop to IDLE.
public final class VirtualType2Tag: VirtualTag, Sendable {
    static let ack: [UInt8] = [0x0A]
    static let nak: [UInt8] = [0x00]

    public let product: Type2Product
    let model: Type2ChipModel
    private let chip: Mutex<Chip>

    /// Loads a raw memory image (every page, `product.totalPages × 4` bytes, as `memory` saves it).
    /// - Throws: `TagError.unsupported` for `.unknown`; `TagError.invalidTagData` for a wrong size.
    public convenience init(product: Type2Product, memory: [UInt8]) throws {
        guard let model = Type2ChipModel(product) else {
            throw TagError.unsupported("no memory map for \(product)")
        }
        guard memory.count == model.totalPages * 4 else {
            throw TagError.invalidTagData("a \(product) image has \(model.totalPages * 4) bytes, not \(memory.count)")
        }
        self.init(model: model, memory: memory)
    }

    /// `memory` must have `model.totalPages × 4` bytes (callers build it from the model).
    init(model: Type2ChipModel, memory: [UInt8]) {
        self.product = model.product
        self.model = model
        self.chip = Mutex(Chip(model: model, mem: memory + [UInt8](repeating: 0, count: max(0, model.totalPages * 4 - memory.count))))
    }

    /// A chip in its factory state (NTAG21x NDEF formatted and empty; Ultralights blank).
    /// - Throws: `TagError.invalidTagData` unless `uid` has 7 bytes; `.unsupported` for `.unknown`.
    public convenience init(product: Type2Product, uid: [UInt8]) throws {
        guard let model = Type2ChipModel(product) else {
            throw TagError.unsupported("no memory map for \(product)")
        }
        guard uid.count == 7 else { throw TagError.invalidTagData("a \(product) UID has 7 bytes, not \(uid.count)") }
        try self.init(product: product, memory: model.factoryMemory(uid: uid))
    }

    /// A formatted chip holding `ndef` (raw NDEF message bytes) in an NDEF TLV after the product's
    /// control TLVs, followed by `FE` when it fits.
    /// - Throws: `TagError.messageTooLarge`, and the errors of `init(product:uid:)`.
    public convenience init(product: Type2Product, uid: [UInt8], ndef: [UInt8]) throws {
        try self.init(product: product, uid: uid)
        try storeInitialNDEF(ndef)
    }

    /// Writes CC and TLVs directly into memory (no radio exchange).
    func storeInitialNDEF(_ ndef: [UInt8]) throws {
        guard let cc = product.capabilityContainer else { throw TagError.unsupported("no CC for \(product)") }
        let prefix = Array(product.formattedTLVs.dropLast(3)) // control TLVs before `03 00 FE`
        let room = cc.dataAreaByteCount - prefix.count
        let capacity = max(0, min(room - 2, 0xFE), room - 4 >= 0xFF ? room - 4 : 0)
        guard ndef.count <= capacity else { throw TagError.messageTooLarge(size: ndef.count, capacity: capacity) }
        let n = ndef.count
        var area = prefix + [0x03] + (n < 0xFF ? [UInt8(n)] : [0xFF, UInt8(n >> 8), UInt8(n & 0xFF)]) + ndef
        if area.count < cc.dataAreaByteCount { area.append(0xFE) }
        chip.withLock {
            $0.mem.replaceSubrange(12 ..< 16, with: cc.bytes)
            $0.mem.replaceSubrange(16 ..< 16 + area.count, with: area)
        }
    }

    /// The whole memory image, page 0 first (a save format `init(product:memory:)` loads).
    public var memory: [UInt8] { chip.withLock { $0.mem } }

    /// Pages `range` of the image, for assertions.
    public func pages(_ range: Range<Int>) -> [UInt8] {
        chip.withLock { chip in
            let end = min(chip.mem.count, max(0, range.upperBound) * 4)
            let start = min(end, max(0, range.lowerBound) * 4)
            return Array(chip.mem[start ..< end])
        }
    }

    /// True after a NAK or an unsupported command until `activate()`.
    public var isMuted: Bool { chip.withLock { $0.muted } }

    // MARK: VirtualTag

    public var uid: [UInt8] { chip.withLock { $0.uid } }
    public var atqa: [UInt8] { [0x00, 0x44] }
    public var sak: UInt8 { 0x00 }
    public var ats: [UInt8]? { nil }

    /// The 32-byte answer to READ_SIG (`3C 00`, NTAG21x / Ultralight EV1): a fixed pattern derived
    /// from the UID here (a real chip holds NXP's ECC signature of its UID).
    public var originalitySignature: [UInt8] { Self.signature(uid: uid) }

    static func signature(uid: [UInt8]) -> [UInt8] {
        (0 ..< 32).map { uid[$0 % uid.count] ^ UInt8($0) }
    }

    public func activate() {
        chip.withLock { $0.muted = false }
    }

    public func respond(to frame: [UInt8]) -> [UInt8]? {
        chip.withLock { $0.respond(to: frame, product: product) }
    }
}

/// The chip's memory and state, behind the tag's lock.
private struct Chip {
    typealias Tag = VirtualType2Tag
    let model: Type2ChipModel
    var mem: [UInt8]
    var muted = false

    var uid: [UInt8] { Array(mem[0 ..< 3] + mem[4 ..< 8]) }

    mutating func respond(to frame: [UInt8], product: Type2Product) -> [UInt8]? {
        do {
            guard !muted, let command = frame.first else { return nil }
            let reply: [UInt8]?
            switch (command, frame.count) {
            case (0x30, 2): reply = read(page: Int(frame[1]))
            case (0x3A, 3) where model.supportsFastRead: reply = fastRead(Int(frame[1]), Int(frame[2]))
            case (0x60, 1) where model.supportsGetVersion: reply = product.versionBytes
            case (0x3C, 2) where model.supportsGetVersion && frame[1] == 0x00: reply = Tag.signature(uid: uid)
            case (0xA2, 6): reply = write(page: Int(frame[1]), data: Array(frame[2 ..< 6]))
            case (0x1B, 5) where model.zeroOnRead.count == 2: reply = passwordAuthentication(Array(frame[1 ..< 5]))
            default: reply = nil // unsupported, malformed, HLTA: the chip drops to IDLE
            }
            if reply == nil || reply == Tag.nak { muted = true }
            return reply
        }
    }

    // MARK: Commands

    private func pageBytes(_ page: Int) -> [UInt8] {
        model.zeroOnRead.contains(page) ? [0, 0, 0, 0] : Array(mem[page * 4 ..< page * 4 + 4])
    }

    private func read(page: Int) -> [UInt8] {
        guard page < model.readablePages else { return Tag.nak }
        return (0 ..< 4).flatMap { pageBytes((page + $0) % model.readablePages) }
    }

    /// PWD_AUTH (`1B` + 4 bytes, NTAG21x / Ultralight EV1): PACK (2 bytes) when the password is
    /// the PWD page's, else NAK. Factory PWD is `FF FF FF FF`, PACK `00 00`. The emulated chip
    /// answers it but does not model AUTH0 protection (factory AUTH0 protects nothing).
    private func passwordAuthentication(_ password: [UInt8]) -> [UInt8] {
        let pwd = (model.totalPages - 2) * 4, pack = (model.totalPages - 1) * 4
        return Array(mem[pwd ..< pwd + 4]) == password ? Array(mem[pack ..< pack + 2]) : Tag.nak
    }

    private func fastRead(_ start: Int, _ end: Int) -> [UInt8] {
        guard start <= end, end < model.readablePages else { return Tag.nak }
        return (start ... end).flatMap { pageBytes($0) }
    }

    private mutating func write(page: Int, data: [UInt8]) -> [UInt8] {
        guard page >= 2, page < model.totalPages, !isLocked(page: page) else { return Tag.nak }
        let base = page * 4
        switch page {
        case 2:
            // Static lock bytes: OR, except bits frozen by the block-lock bits (byte 10 bits 0-2).
            let bl = mem[10]
            var frozen10: UInt8 = 0, frozen11: UInt8 = 0
            if bl & 0x01 != 0 { frozen10 |= 0x08 }                  // BL-CC freezes L-CC
            if bl & 0x02 != 0 { frozen10 |= 0xF0; frozen11 |= 0x03 } // BL 9-4 freezes L4-L9
            if bl & 0x04 != 0 { frozen11 |= 0xFC }                   // BL 15-10 freezes L10-L15
            mem[10] |= data[2] & ~frozen10
            mem[11] |= data[3] & ~frozen11
        case 3:
            for i in 0 ..< 4 { mem[base + i] |= data[i] } // CC is OTP
        case _ where isDynamicLockPage(page):
            for i in 0 ..< 4 { mem[base + i] |= data[i] }
        default:
            mem.replaceSubrange(base ..< base + 4, with: data)
        }
        return Tag.ack
    }

    private func isDynamicLockPage(_ page: Int) -> Bool {
        guard let area = model.dynamicLock else { return false }
        return area.range.contains(page * 4)
    }

    /// Static lock bits: byte 10 bit 3 = CC, bits 4-7 = pages 4-7; byte 11 bits 0-7 = pages 8-15.
    /// Dynamic lock bit i protects user bytes from 64 + i × bytesPerLockBit.
    private func isLocked(page: Int) -> Bool {
        switch page {
        case 3: return mem[10] & 0x08 != 0
        case 4 ... 7: return mem[10] & (1 << UInt8(page)) != 0
        case 8 ... 15: return mem[11] & (1 << UInt8(page - 8)) != 0
        case _ where page >= 16 && page <= model.lastUserPage:
            guard let area = model.dynamicLock, area.bytesPerLockBit > 0 else { return false }
            let bit = (page * 4 - 64) / area.bytesPerLockBit
            guard bit < area.bitCount else { return false }
            return mem[area.address + bit / 8] & (1 << UInt8(bit % 8)) != 0
        default: return false
        }
    }
}
