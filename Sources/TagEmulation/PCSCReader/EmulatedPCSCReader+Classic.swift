import NFCTags

extension EmulatedPCSCReader {
    /// PC/SC Part 3 storage-card commands for a MIFARE Classic card (docs/tags-and-readers.md §10):
    /// Load Keys `FF 82 P1 P2 06 key` into slot P2 (`00`/`01`; P1 `20` on the OMNIKEY personality,
    /// `00` elsewhere, else `69 86`), General Authenticate `FF 86 00 00 05 01 00 block 60|61 slot`
    /// (`63 00` for a refused key), READ BINARY `FF B0 00 block 10`, UPDATE BINARY `FF D6 00 block 10 data`.
    func classicPseudo(_ apdu: [UInt8], card: VirtualMifareClassic) -> [UInt8] {
        let body = Array(apdu.dropFirst(4))
        switch apdu[1] {
        case 0x82:
            guard apdu[2] == (profile.family == .omnikey ? 0x20 : 0x00) else { return [0x69, 0x86] }
            guard apdu[3] <= 0x01 else { return [0x6A, 0x86] }
            guard body.count == 7, body[0] == 6 else { return Self.wrongLength }
            state.withLock { $0.classicKeys[apdu[3]] = Array(body[1...]) }
            return Self.ok
        case 0x86:
            guard body.count == 6, body[0] == 5, body[1] == 0x01, body[2] == 0x00, body[4] == 0x60 || body[4] == 0x61 else {
                return Self.wrongLength
            }
            guard let key = state.withLock({ $0.classicKeys[body[5]] }) else { return [0x69, 0x86] }
            let frame = [body[4], body[3]] + key + Array(card.uid.prefix(4))
            return card.respond(to: frame) == [0x0A] ? Self.ok : Self.failed
        case 0xB0:
            guard apdu[2] == 0x00, body == [0x10] || body == [0x00] else { return Self.wrongLength }
            guard let data = card.respond(to: [0x30, apdu[3]]), data.count == 16 else { return Self.failed }
            return data + Self.ok
        default: // D6
            guard apdu[2] == 0x00, body.count == 17, body[0] == 0x10 else { return Self.wrongLength }
            return card.respond(to: [0xA0, apdu[3]] + body[1...]) == [0x0A] ? Self.ok : Self.failed
        }
    }
}
