import NDEF

// The ISO 7816-4 commands of the Type 4 mapping, one exchange each (docs/tags-and-readers.md §2).
extension Type4Tag {
    /// SELECT by name `00 A4 04 00 07 D2 76 00 00 85 01 01 00`; on `6A 82` the legacy
    /// `00 A4 04 00 07 D2 76 00 00 85 01 00` (no Le). Returns true for a legacy (v1) tag.
    /// - Throws: `TagError.notNDEFFormatted` when both answer `6A 82`, `.status` for other words.
    func selectNDEFApplication() throws(TagError) -> Bool {
        let v2 = try transceiver.send(command(ins: Type4.Instruction.select, p1: 0x04, p2: 0x00,
                                              data: Type4.ndefApplicationID, le: 256))
        if v2.isSuccess { return false }
        guard v2.sw1 == 0x6A, v2.sw2 == 0x82 else { throw TagError.status(sw1: v2.sw1, sw2: v2.sw2) }
        let v1 = try transceiver.send(command(ins: Type4.Instruction.select, p1: 0x04, p2: 0x00,
                                              data: Type4.legacyNDEFApplicationID))
        if v1.isSuccess { return true }
        if v1.sw1 == 0x6A, v1.sw2 == 0x82 {
            throw TagError.notNDEFFormatted("no NDEF application: SELECT answered \(statusWordText(0x6A, 0x82))")
        }
        throw TagError.status(sw1: v1.sw1, sw2: v1.sw2)
    }

    /// SELECT by file ID: `00 A4 00 0C 02 fid` (no response data), or P2 = `00` on legacy tags.
    func selectFile(_ fileID: [UInt8], legacy: Bool) throws(TagError) {
        let data = try transceiver.send(command(ins: Type4.Instruction.select, p1: 0x00, p2: legacy ? 0x00 : 0x0C,
                                                data: fileID)).successData()
        // P2 = 0C asks for no response data; legacy tags may return an FCI.
        guard legacy || data.isEmpty else {
            throw TagError.malformedReply("SELECT \(fileID.hexString) returned \(data.count) bytes of data, none asked")
        }
    }

    /// READ BINARY of up to `count` bytes: `00 B0 offHi offLo Le` for offsets ≤ 7FFF, else
    /// `00 B1 00 00 05 54 03 o2 o1 o0 Le` whose reply is `53 len data`.
    /// - Returns: 1...count bytes (a tag may return fewer than asked; callers continue from there).
    /// - Throws: `TagError.malformedReply` for no data, more data than asked or a broken `53` object.
    func readBinary(offset: Int, count: Int) throws(TagError) -> [UInt8] {
        let data: [UInt8]
        if offset <= Type4.maxShortOffset {
            data = try transceiver.send(command(ins: Type4.Instruction.readBinary, p1: UInt8(offset >> 8),
                                                p2: UInt8(offset & 0xFF), le: count)).successData()
        } else {
            let le = count + Type4DataObjects.headerSize(count)
            let reply = try transceiver.send(command(ins: Type4.Instruction.readBinaryODO, p1: 0x00, p2: 0x00,
                                                     data: Type4DataObjects.offset(offset), le: le)).successData()
            guard let inner = Type4DataObjects.parseData(reply[...]) else {
                throw TagError.malformedReply("READ BINARY (B1) at \(offset) did not return one 53 data object")
            }
            data = inner
        }
        guard !data.isEmpty else { throw TagError.malformedReply("READ BINARY at \(offset) returned no data") }
        guard data.count <= count else {
            throw TagError.malformedReply("READ BINARY at \(offset) returned \(data.count) bytes, \(count) asked")
        }
        return data
    }

    /// UPDATE BINARY: `00 D6 offHi offLo Lc data` for offsets ≤ 7FFF, else
    /// `00 D7 00 00 Lc 54 03 o2 o1 o0 53 len data`. Expects `90 00` and no data.
    func updateBinary(offset: Int, data: [UInt8]) throws(TagError) {
        let reply: [UInt8]
        if offset <= Type4.maxShortOffset {
            reply = try transceiver.send(command(ins: Type4.Instruction.updateBinary, p1: UInt8(offset >> 8),
                                                 p2: UInt8(offset & 0xFF), data: data)).successData()
        } else {
            reply = try transceiver.send(command(ins: Type4.Instruction.updateBinaryODO, p1: 0x00, p2: 0x00,
                                                 data: Type4DataObjects.offset(offset) + Type4DataObjects.data(data))).successData()
        }
        guard reply.isEmpty else {
            throw TagError.malformedReply("UPDATE BINARY at \(offset) returned \(reply.count) bytes of data")
        }
    }

    /// Builds a CLA 00 command. The callers keep Lc/Le in range, so a build failure is a bug
    /// reported as `TagError.unsupported` rather than a trap.
    func command(ins: UInt8, p1: UInt8, p2: UInt8, data: [UInt8] = [], le: Int? = nil) throws(TagError) -> CommandAPDU {
        do {
            return try CommandAPDU(cla: 0x00, ins: ins, p1: p1, p2: p2, data: data, le: le)
        } catch {
            throw TagError.unsupported("command \(String(ins, radix: 16, uppercase: true))h: \(error)")
        }
    }
}
