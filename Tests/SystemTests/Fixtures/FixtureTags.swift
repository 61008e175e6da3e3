import TagEmulation

/// A minimal NTAG213 for the PN532 tests (until TagEmulation's own virtual tags are merged):
/// 45 pages, READ 30 (16 bytes, wrapping), FAST_READ 3A, WRITE A2 → ACK 0A, GET_VERSION 60.
/// An unknown or out-of-range command NAKs or stays silent and mutes the tag until reactivated,
/// like a real Type 2 tag.
// @unchecked: a test fixture: the emulator's one serving thread drives it, the test reads it once the exchanges are over.
final class FixtureType2Tag: VirtualTag, @unchecked Sendable {
    let uid: [UInt8]
    let atqa: [UInt8] = [0x00, 0x44]
    let sak: UInt8 = 0x00
    let ats: [UInt8]? = nil
    var pages: [[UInt8]]
    private(set) var muted = false
    private(set) var activations = 0

    /// NTAG213 GET_VERSION answer.
    static let version: [UInt8] = [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03]

    init(uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0x80], pageCount: Int = 45) {
        self.uid = uid
        var pages = (0..<pageCount).map { p in (0..<4).map { UInt8(truncatingIfNeeded: p &* 4 &+ $0) } }
        // UID + BCC layout, a CC for NTAG213 and an NDEF TLV holding a short URI record.
        pages[0] = [uid[0], uid[1], uid[2], 0x88 ^ uid[0] ^ uid[1] ^ uid[2]]
        pages[1] = Array(uid[3...6])
        pages[2] = [uid[3] ^ uid[4] ^ uid[5] ^ uid[6], 0x48, 0x00, 0x00]
        pages[3] = [0xE1, 0x10, 0x12, 0x00]
        pages[4] = [0x03, 0x0B, 0xD1, 0x01]
        pages[5] = [0x07, 0x55, 0x04, 0x6E]
        pages[6] = [0x66, 0x63, 0x2E, 0x69]
        pages[7] = [0x6F, 0xFE, 0x00, 0x00]
        // NTAG213 reads PWD (page 43) and PACK (page 44) as zeros.
        if pageCount == 45 {
            pages[43] = [0, 0, 0, 0]
            pages[44] = [0, 0, 0, 0]
        }
        self.pages = pages
    }

    /// All memory, page 0 first.
    var memory: [UInt8] { pages.flatMap { $0 } }

    func activate() {
        muted = false
        activations += 1
    }

    func respond(to frame: [UInt8]) -> [UInt8]? {
        guard !muted, let command = frame.first else { return nil }
        switch (command, frame.count) {
        case (0x30, 2):
            let start = Int(frame[1])
            guard start < pages.count else { return nak() }
            return (0..<4).flatMap { pages[(start + $0) % pages.count] }
        case (0x3A, 3):
            let start = Int(frame[1]), end = Int(frame[2])
            guard start <= end, end < pages.count else { return nak() }
            return pages[start...end].flatMap { $0 }
        case (0xA2, 6):
            let page = Int(frame[1])
            guard page >= 2, page < pages.count else { return nak() }
            pages[page] = Array(frame[2...5])
            return [0x0A]
        case (0x60, 1):
            return Self.version
        default:
            muted = true
            return nil
        }
    }

    private func nak() -> [UInt8] {
        muted = true
        return [0x00]
    }
}

/// A minimal ISO-DEP card: SELECT by name answers 90 00, `00 B0 00 00 Le` answers Le bytes
/// (0, 1, 2, …) and 90 00, anything else 6D 00.
// @unchecked: a test fixture: the emulator's one serving thread drives it, the test reads it once the exchanges are over.
final class FixtureISODEPTag: VirtualTag, @unchecked Sendable {
    let uid: [UInt8] = [0x08, 0x12, 0x34, 0x56]
    let atqa: [UInt8] = [0x00, 0x04]
    let sak: UInt8 = 0x20
    /// TL T0 TA TB TC, then the historical byte 80.
    let ats: [UInt8]? = [0x06, 0x75, 0x77, 0x81, 0x02, 0x80]
    private(set) var apdus: [[UInt8]] = []

    func activate() {}

    func respond(to frame: [UInt8]) -> [UInt8]? {
        apdus.append(frame)
        if frame.count >= 4, frame[0] == 0x00, frame[1] == 0xA4 { return [0x90, 0x00] }
        if frame.count == 5, frame[0] == 0x00, frame[1] == 0xB0 {
            let le = frame[4] == 0 ? 256 : Int(frame[4])
            return (0..<le).map { UInt8(truncatingIfNeeded: $0) } + [0x90, 0x00]
        }
        return [0x6D, 0x00]
    }
}
