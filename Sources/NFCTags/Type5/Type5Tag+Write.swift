/// Writing, formatting and locking a Type 5 tag (docs/tags-and-readers.md §7.8).
extension Type5Tag {
    /// Write Single Block (`21`, extended `31` beyond block 255) of exactly one block. A write the
    /// reader reports as timed out or failed (`63 00`) is read back before deciding (an ACR1552 reports a
    /// timeout for a Write Single Block to an ICODE SLIX that landed; docs/tags-and-readers.md §7.2).
    func writeBlock(_ block: Int, _ data: [UInt8]) throws(TagError) {
        try Self.checkAddressable(block)
        let parameters = block > 0xFF ? [UInt8(block & 0xFF), UInt8(block >> 8)] + data : [UInt8(block)] + data
        do throws(TagError) {
            try command(block > 0xFF ? .extendedWriteSingleBlock : .writeSingleBlock, flags: writeFlags, parameters: parameters)
        } catch where error == .timeout || error == .status(sw1: 0x63, sw2: 0x00) {
            // A reader's "no answer" or "failed" for a write that may have landed: the block decides.
            blocks[block] = nil
            guard (try? readSingle(block)) == data else { throw error }
        }
        blocks[block] = data
    }

    /// Writes `message` as the NDEF TLV, tear-safe as on Type 2 (length last): the TLV's first
    /// block(s) with length 0, then the message and terminator blocks, then the first block(s)
    /// with the real length. Only whole blocks are written. Then the message is read back.
    /// - Throws: `.readOnly`, `.messageTooLarge`, `.notNDEFFormatted`, `.invalidTagData` when the
    ///   read-back differs, the link's and tag's errors.
    public func writeNDEF(_ message: [UInt8]) throws(TagError) {
        let cc = try readCapabilityContainer()
        guard cc.isWritable else { throw TagError.readOnly }
        let (blockSize, _) = try readLayout()
        let area = try tlvArea()
        let capacity = Self.capacity(areaSize: area.count)
        guard message.count <= capacity else { throw TagError.messageTooLarge(size: message.count, capacity: capacity) }
        let start = area.lowerBound
        let longLength = message.count >= 0xFF
        let header: [UInt8] = longLength ? [0x03, 0xFF, UInt8(message.count >> 8), UInt8(message.count & 0xFF)] : [0x03, UInt8(message.count)]
        let emptyHeader: [UInt8] = longLength ? [0x03, 0xFF, 0x00, 0x00] : [0x03, 0x00]
        var tlv = header + message
        if start + tlv.count < area.upperBound { tlv.append(0xFE) }
        let end = start + tlv.count
        let firstBlock = start / blockSize
        let lastBlock = (end - 1) / blockSize
        let headerLastBlock = (start + header.count - 1) / blockSize
        // The bytes around the TLV in its first and last block stay as they are (the CC in block 0).
        var image = try bytes(at: firstBlock * blockSize, count: (lastBlock - firstBlock + 1) * blockSize)
        let base = firstBlock * blockSize
        image.replaceSubrange(start - base ..< end - base, with: tlv)
        func blockData(_ block: Int, _ image: [UInt8]) -> [UInt8] {
            Array(image[(block - firstBlock) * blockSize ..< (block - firstBlock + 1) * blockSize])
        }
        var emptied = image
        emptied.replaceSubrange(start - base ..< start - base + emptyHeader.count, with: emptyHeader)
        for block in firstBlock ... headerLastBlock { try writeBlock(block, blockData(block, emptied)) }
        if lastBlock > headerLastBlock {
            for block in headerLastBlock + 1 ... lastBlock { try writeBlock(block, blockData(block, image)) }
        }
        for block in firstBlock ... headerLastBlock where blockData(block, emptied) != blockData(block, image) {
            try writeBlock(block, blockData(block, image))
        }
        // Read back what was written, from the tag rather than the cache.
        for block in firstBlock ... lastBlock { blocks[block] = nil }
        let back = try bytes(at: start, count: tlv.count)
        guard back == tlv else { throw TagError.invalidTagData("the message read back differs from what was written") }
    }

    /// Formats a blank tag for NDEF: the CC (`E1 40 MLEN features`, or the 8-byte form above
    /// 2040 bytes) and an empty NDEF TLV `03 00 FE`. CC3 announces Read Multiple Blocks on NXP
    /// ICODE chips, which implement it; nothing else is claimed (docs/tags-and-readers.md §7.6).
    /// Only a blank tag (every block zero) is formatted unless `overwrite`: a library or asset label
    /// holding its own data (the Flipper SLIX2 dump) is left alone.
    /// - Throws: `.invalidTagData` when the tag is already NDEF formatted or holds data.
    public func format(overwrite: Bool = false) throws(TagError) {
        let (blockSize, blockCount) = try readLayout()
        if !overwrite {
            if (try? readCapabilityContainer()) != nil { throw TagError.invalidTagData("the tag is already NDEF formatted") }
            let memory = try readBlocks(0, count: blockCount)
            if let used = memory.firstIndex(where: { $0 != 0 }) {
                throw TagError.invalidTagData("block \(used / blockSize) holds data: the tag is not blank, nfctap does not format it")
            }
        }
        cc = nil
        let features: UInt8 = product.formatsWithReadMultiple ? 0x01 : 0x00
        let newCC = Type5CapabilityContainer.forBlankTag(memorySize: blockSize * blockCount, features: features)
        var image = newCC.bytes + [0x03, 0x00, 0xFE]
        let count = (image.count + blockSize - 1) / blockSize
        image += [UInt8](repeating: 0, count: count * blockSize - image.count)
        // The TLV first, the CC last: a torn format leaves no magic.
        for block in (0 ..< count).reversed() {
            try writeBlock(block, Array(image[block * blockSize ..< (block + 1) * blockSize]))
        }
        for block in 0 ..< count { blocks[block] = nil }
        guard try readCapabilityContainer() == newCC else { throw TagError.invalidTagData("the CC read back differs") }
    }

    /// Core NFC's `writeLock()`: CC write access `3` ("never"), then Lock Block (`22`, permanent)
    /// on every block, the CC's first. A block already locked (`11`) is fine.
    /// - Throws: `.unsupported` when the link cannot pass Lock Block; `.readOnly` when already locked.
    public func writeLock() throws(TagError) {
        _ = try lockKind()
        var cc = try readCapabilityContainer()
        let (blockSize, blockCount) = try readLayout()
        if cc.isWritable {
            cc.writeAccess = 0x03
            let ccBlocks = (cc.length + blockSize - 1) / blockSize
            var image = try readBlocks(0, count: ccBlocks)
            image.replaceSubrange(0 ..< cc.length, with: cc.bytes)
            for block in 0 ..< ccBlocks { try writeBlock(block, Array(image[block * blockSize ..< (block + 1) * blockSize])) }
            self.cc = cc
        }
        for block in 0 ..< blockCount { try lockBlock(block) }
    }

    /// Lock Block is permanent (ISO/IEC 15693-3 §10.4.5), and needs a reader that passes it.
    public func lockKind() throws(TagError) -> NDEFLockKind {
        guard link.passesAnyCommand else {
            throw TagError.unsupported("Lock Block through this reader (it passes only block reads and writes)")
        }
        return .permanent
    }

    /// Lock Block (`22`, extended `32`); `11` (already locked) counts as done.
    public func lockBlock(_ block: Int) throws(TagError) {
        try Self.checkAddressable(block)
        do throws(TagError) {
            if block > 0xFF {
                try command(.extendedLockBlock, flags: writeFlags, parameters: [UInt8(block & 0xFF), UInt8(block >> 8)])
            } else {
                try command(.lockBlock, flags: writeFlags, parameters: [UInt8(block)])
            }
        } catch TagError.iso15693(code: 0x11) {
            return
        }
    }
}

extension Type5Product {
    /// NXP ICODE chips implement Read Multiple Blocks (the formatted CC says so).
    var formatsWithReadMultiple: Bool {
        switch self {
        case .icodeSLI, .icodeSLIX, .icodeSLIX2, .icodeSLIS, .icodeSLIXS, .icodeSLIL, .icodeSLIXL, .ntag5, .tagItHFIPlus: return true
        default: return false
        }
    }
}
