import NFCTags

extension EmulatedPCSCReader {
    /// PC/SC pseudo-APDUs for an ISO 15693 tag (docs/tags-and-readers.md §7.10), as the OMNIKEY
    /// AViatoR ISO 15693 sample and SpringCard's block mapping describe them:
    /// - GET DATA `FF CA 00 00 00`: the UID, LSB first on the OMNIKEY personality (the order on air;
    ///   the byte order is undocumented, so both orders occur) and MSB first elsewhere;
    /// - READ BINARY `FF B0 hi lo Le`: Le `00` = one block, else a whole number of blocks → Read
    ///   (Multiple) Block(s); a refused block → `6A 82`;
    /// - UPDATE BINARY `FF D6 hi lo Lc data`: Lc a whole number of blocks → Write Single Block per
    ///   block; a locked block → `69 82`, no answer → `63 00`.
    /// The ACR122U personality has no ISO 15693 radio: nil (the tag is not in its field).
    func iso15693Pseudo(_ apdu: [UInt8], tag: VirtualISO15693Tag) -> [UInt8]? {
        let body = Array(apdu.dropFirst(4))
        let block = Int(apdu[2]) << 8 | Int(apdu[3])
        let size = tag.model.blockSize
        let flags: UInt8 = 0x02 // high data rate, non-addressed
        func blockFrame(_ code: UInt8, _ b: Int) -> [UInt8] {
            b > 0xFF ? [flags, code + 0x10, UInt8(b & 0xFF), UInt8(b >> 8)] : [flags, code, UInt8(b)]
        }
        switch apdu[1] {
        case 0xCA:
            guard apdu[2] == 0x00 else { return Self.functionNotSupported }
            return (profile.family == .omnikey ? tag.uid.reversed() : tag.uid) + Self.ok
        case 0xB0:
            let le = Int(body.first ?? 0)
            let count = le == 0 ? 1 : le / size
            guard le % size == 0, count >= 1 else { return Self.wrongLength }
            var out: [UInt8] = []
            for b in block ..< block + count {
                guard let reply = tag.respond(to: blockFrame(0x20, b)) else { return Self.failed }
                guard reply.first == 0x00 else { return [0x6A, 0x82] }
                out += reply.dropFirst()
            }
            return out + Self.ok
        case 0xD6:
            guard let lc = body.first, body.count == Int(lc) + 1, lc > 0, Int(lc) % size == 0 else { return Self.wrongLength }
            let data = Array(body.dropFirst())
            for (i, b) in (block ..< block + data.count / size).enumerated() {
                let chunk = Array(data[i * size ..< (i + 1) * size])
                // A TI tag answers writes only with the option flag: the reader sets it for TI.
                let option: UInt8 = tag.model.writeAnswersOnlyWithOption ? 0x40 : 0x00
                var frame = blockFrame(0x21, b)
                frame[0] |= option
                guard let reply = tag.respond(to: frame + chunk) else { return Self.failed }
                if reply == [0x01, 0x12] { return [0x69, 0x82] }
                guard reply.first == 0x00 else { return [0x6A, 0x82] }
            }
            return Self.ok
        default:
            return Self.insNotSupported
        }
    }

    /// `FF C2 00 02 04 8F 02 02 03`: switch protocol to ISO 15693 layer 3 (DO 8F), answered
    /// `C0 03 00 90 00 8F 01 00 90 00` as in the ACR1552 trace; `8F 02 03 00` switches to FeliCa
    /// (docs/tags-and-readers.md §9.1), which only a FeliCa card accepts.
    func switchProtocol(_ dataObjects: [UInt8], tag: VirtualTag) -> [UInt8] {
        guard dataObjects.count == 4, dataObjects[0] == 0x8F, dataObjects[1] == 0x02 else {
            return [0xC0, 0x03, 0x01, 0x6A, 0x81] + Self.ok
        }
        let wantsISO15693 = dataObjects[2] == 0x02
        guard wantsISO15693 == (tag is VirtualISO15693Tag) else { return [0xC0, 0x03, 0x01, 0x6A, 0x81] + Self.ok }
        let wantsFeliCa = dataObjects[2] == 0x03 && dataObjects[3] == 0x00
        guard wantsFeliCa == (tag is VirtualFeliCaCard) else { return [0xC0, 0x03, 0x01, 0x6A, 0x81] + Self.ok }
        return [0xC0, 0x03, 0x00, 0x90, 0x00, 0x8F, 0x01, 0x00] + Self.ok
    }
}
