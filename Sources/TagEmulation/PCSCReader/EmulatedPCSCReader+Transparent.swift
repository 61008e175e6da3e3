import NFCTags

extension EmulatedPCSCReader {
    /// PC/SC 2.02 Part 3 Supplement §3.2.7: `FF C2 00 00` Manage Session (DO 81 start, 82 end),
    /// `FF C2 00 01` Transparent Exchange (DO 95 transceive → `C0 03 00 90 00 92 01 bits 97 len data`;
    /// no answer → `C0 03 01 64 01`). Readers without it answer `6D 00` (or `transparentRefusal`).
    func transparent(p1: UInt8, p2: UInt8, body: [UInt8], tag: VirtualTag) -> [UInt8] {
        guard profile.supportsTransparentExchange else { return Self.insNotSupported }
        guard !refusesTransparentExchange else { return transparentRefusal }
        guard p1 == 0x00, let lc = body.first, lc > 0, body.count >= Int(lc) + 1 else { return Self.wrongLength }
        let dataObjects = Array(body[1 ... Int(lc)])
        let success: [UInt8] = [0xC0, 0x03, 0x00, 0x90, 0x00]
        switch p2 { // 00 Manage Session, 01 Transparent Exchange
        case 0x00:
            switch dataObjects {
            case [0x81, 0x00]: state.withLock { $0.sessionOpen = true }
            case [0x82, 0x00]: state.withLock { $0.sessionOpen = false }
            default: return [0xC0, 0x03, 0x01, 0x6A, 0x81] + Self.ok
            }
            return success + Self.ok
        case 0x02: // Switch Protocol
            guard state.withLock({ $0.sessionOpen }) else { return Self.failed }
            return switchProtocol(dataObjects, tag: tag)
        case 0x01:
            guard state.withLock({ $0.sessionOpen }) else { return Self.failed }
            guard dataObjects.count >= 2, dataObjects[0] == 0x95 else { return [0xC0, 0x03, 0x01, 0x6A, 0x81] + Self.ok }
            var length = Int(dataObjects[1]), start = 2
            if dataObjects[1] == 0x81, dataObjects.count >= 3 { length = Int(dataObjects[2]); start = 3 }
            guard dataObjects.count == start + length else { return [0xC0, 0x03, 0x01, 0x67, 0x00] + Self.ok }
            guard let reply = tag.respond(to: Array(dataObjects[start...])) else {
                return [0xC0, 0x03, 0x01, 0x64, 0x01] + Self.ok
            }
            let bits: UInt8 = reply.count == 1 ? 0x04 : 0x00 // ACK/NAK: 4 bits
            let lengthBytes: [UInt8] = reply.count < 0x80 ? [UInt8(reply.count)] : [0x81, UInt8(reply.count)]
            return success + [0x92, 0x01, bits, 0x97] + lengthBytes + reply + Self.ok
        default:
            return Self.functionNotSupported
        }
    }
}
