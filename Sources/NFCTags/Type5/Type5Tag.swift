/// What `Type5Tag.inspect()` learns about a tag.
public struct Type5TagInfo: Sendable, Hashable {
    public var uid: [UInt8]
    public var product: Type5Product
    public var systemInfo: ISO15693SystemInfo?
    public var blockSize: Int
    public var blockCount: Int
    /// nil when the tag is not NDEF formatted.
    public var capabilityContainer: Type5CapabilityContainer?
    /// Largest NDEF message the tag holds (0 when not formatted).
    public var capacity: Int
    public var isWritable: Bool
    public var memorySize: Int { blockSize * blockCount }
}

/// An NFC Forum Type 5 tag (ISO/IEC 15693) over an `ISO15693Link`: system information, the
/// capability container, NDEF read, tear-safe write, format and lock (docs/tags-and-readers.md §7).
///
/// Every command is addressed (flags `22`: high data rate + address) when the UID is known. Writes
/// and locks add the option flag on TI tags only (Tag-it HF-I needs it, ST tags refuse it; NXP
/// ICODE writes with `22`). Blocks read once are kept, so `inspect()` after `readNDEF()` costs no
/// exchange.
public final class Type5Tag: NDEFTagOperations {
    public let link: ISO15693Link
    /// Most blocks one Read Multiple Blocks asks for: 32, at most 128 bytes (FEIG readers cap a
    /// read at 128 bytes; a transparent-exchange reply must fit a short APDU).
    public var maxBytesPerRead = 128

    public private(set) var systemInfo: ISO15693SystemInfo?
    var layout: (blockSize: Int, blockCount: Int)?
    var cc: Type5CapabilityContainer?
    var blocks: [Int: [UInt8]] = [:]
    /// Read Multiple Blocks answered "not supported": single reads from then on.
    var readMultipleRefused = false

    public init(link: ISO15693Link) {
        self.link = link
    }

    public var uid: [UInt8] { link.uid }
    public var product: Type5Product { Type5Product(uid: uid, icReference: systemInfo?.icReference) }

    var isTI: Bool { uid.count == 8 && uid[1] == ISO15693Manufacturer.ti }
    var isST: Bool { uid.count == 8 && uid[1] == ISO15693Manufacturer.st }

    /// `22` addressed with the UID known, `02` otherwise.
    var flags: UInt8 {
        ISO15693RequestFlags.highDataRate | (uid.count == 8 ? ISO15693RequestFlags.address : 0)
    }

    /// Write and lock flags: with the option flag on TI tags.
    var writeFlags: UInt8 { flags | (isTI ? ISO15693RequestFlags.option : 0) }

    /// One command, its response data.
    /// - Throws: `.iso15693(code:)` when the tag answered an error; the link's errors.
    @discardableResult
    public func command(_ command: ISO15693Command, flags: UInt8? = nil, parameters: [UInt8] = []) throws(TagError) -> [UInt8] {
        let frame = ISO15693Frame.request(command, flags: flags ?? self.flags, uid: uid, parameters: parameters)
        return try ISO15693Frame.responseData(try link.transceive(frame), for: "\(command)")
    }

    /// Get System Information (once), the block size and count: from the answer, from the known
    /// layout of chips without the command (TI Tag-it HF-I Standard/Pro), or — when the link cannot
    /// pass the command — from the size of block 0 and the CC.
    /// - Throws: `.notNDEFFormatted` when only block 0 can tell the layout and it holds no Type 5 CC;
    ///   `.invalidTagData` when the tag reports no memory size and none can be inferred.
    public func readLayout() throws(TagError) -> (blockSize: Int, blockCount: Int) {
        if let layout { return layout }
        if let assumed = product.assumedLayout {
            layout = assumed
            return assumed
        }
        if link.passesAnyCommand {
            do throws(TagError) {
                let info = try ISO15693SystemInfo(responseData: try command(.getSystemInfo, flags: flags))
                systemInfo = info
                if let size = info.blockSize, let count = info.blockCount {
                    layout = (size, count)
                    return (size, count)
                }
            } catch TagError.iso15693(let code) where code == 0x01 || code == 0x02 {
                // No Get System Info on this chip: fall through to the size of block 0.
            } catch TagError.unsupported(_) where !link.passesAnyCommand {
                // The reader refused to pass the command (and now uses block access): block 0 tells.
            }
        }
        // Block 0 tells the block size; its CC tells the memory size.
        let first = try readSingle(0)
        let size = first.count
        guard (1 ... 32).contains(size) else { throw TagError.malformedReply("block 0 of \(size) bytes") }
        blocks[0] = first
        var ccBytes = first
        if size < 8, first.count >= 3, first[2] == 0, first[0] == 0xE2 {
            let second = try readSingle(1)
            guard second.count == size else {
                throw TagError.malformedReply("block 1 has \(second.count) bytes, block 0 \(size)")
            }
            blocks[1] = second
            ccBytes += second
        }
        // Without the magic there is no NDEF to read (a library label, a blank tag): said so, as
        // on a reader that passes Get System Info.
        let described: Int
        do {
            described = try Type5CapabilityContainer(bytes: ccBytes).dataAreaSize
        } catch let TagError.notNDEFFormatted(reason) {
            throw TagError.notNDEFFormatted("\(reason) (and the reader passes no Get System Info to tell the memory size)")
        }
        guard described > 0 else {
            throw TagError.invalidTagData("the reader reports no memory size and block 0 holds no Type 5 CC")
        }
        let guessed = (size, (described + size - 1) / size)
        guard guessed.1 <= Self.addressableBlocks else {
            throw TagError.invalidTagData("the CC describes \(described) bytes: more than the \(Self.addressableBlocks) blocks of \(size) bytes ISO 15693 can address")
        }
        layout = guessed
        return guessed
    }

    /// Block numbers are one byte, or two in the extended commands (`30`–`3C`): 65,536 blocks at most.
    static let addressableBlocks = 0x1_0000

    /// - Throws: `.invalidTagData` for a block number no ISO 15693 command can carry.
    static func checkAddressable(_ block: Int) throws(TagError) {
        guard (0 ..< addressableBlocks).contains(block) else {
            throw TagError.invalidTagData("block \(block) lies beyond ISO 15693's 16-bit block numbers")
        }
    }

    /// Read Single Block (`20`, extended `30` beyond block 255): the block's bytes.
    /// - Throws: `.malformedReply` for an empty block; `.iso15693` (`10` beyond the memory).
    func readSingle(_ block: Int) throws(TagError) -> [UInt8] {
        try Self.checkAddressable(block)
        let data = block > 0xFF
            ? try command(.extendedReadSingleBlock, parameters: [UInt8(block & 0xFF), UInt8(block >> 8)])
            : try command(.readSingleBlock, parameters: [UInt8(block)])
        guard !data.isEmpty else { throw TagError.malformedReply("block \(block) came back empty") }
        return data
    }

    /// Blocks `first ..< first + count`, from the cache where read before, else with Read Multiple
    /// Blocks where the CC allows it (never on ST tags, which refuse reads across sectors), else
    /// one Read Single Block each. Each block must be `blockSize` bytes.
    /// - Throws: `.malformedReply` on a block-size mismatch; `.iso15693` when the tag refuses.
    public func readBlocks(_ first: Int, count: Int) throws(TagError) -> [UInt8] {
        let (blockSize, blockCount) = try readLayout()
        guard first >= 0, count >= 0, first + count <= blockCount else {
            throw TagError.invalidTagData("blocks \(first)..<\(first + count) lie beyond the tag's \(blockCount) blocks")
        }
        var block = first
        let end = first + count
        while block < end {
            if blocks[block] != nil { block += 1; continue }
            var run = 1
            while block + run < end, blocks[block + run] == nil { run += 1 }
            let perRead = max(1, min(maxBytesPerRead / blockSize, 256))
            if useReadMultiple, run > 1 {
                let n = min(run, perRead)
                if try readMultiple(block, count: n, blockSize: blockSize) {
                    block += n
                    continue
                }
            }
            let data = try readSingle(block)
            guard data.count == blockSize else {
                throw TagError.malformedReply("block \(block) has \(data.count) bytes; the tag reports \(blockSize)-byte blocks")
            }
            blocks[block] = data
            block += 1
        }
        return (first ..< end).flatMap { blocks[$0]! }
    }

    var useReadMultiple: Bool {
        link.passesAnyCommand && !readMultipleRefused && !isST && (cc?.supportsReadMultiple ?? false)
    }

    /// false when the tag refused the command as unsupported (remembered).
    private func readMultiple(_ first: Int, count: Int, blockSize: Int) throws(TagError) -> Bool {
        let data: [UInt8]
        do throws(TagError) {
            data = first + count - 1 > 0xFF
                ? try command(.extendedReadMultipleBlocks,
                              parameters: [UInt8(first & 0xFF), UInt8(first >> 8), UInt8((count - 1) & 0xFF), UInt8((count - 1) >> 8)])
                : try command(.readMultipleBlocks, parameters: [UInt8(first), UInt8(count - 1)])
        } catch TagError.iso15693(let code) where code == 0x01 || code == 0x02 || code == 0x03 {
            readMultipleRefused = true
            return false
        } catch TagError.unsupported(_) where !link.passesAnyCommand {
            return false // the reader stopped passing commands: single blocks through block access
        }
        guard data.count == count * blockSize else {
            throw TagError.malformedReply("Read Multiple Blocks \(first)+\(count) returned \(data.count) bytes, not \(count * blockSize)")
        }
        for i in 0 ..< count { blocks[first + i] = Array(data[i * blockSize ..< (i + 1) * blockSize]) }
        return true
    }

    /// The capability container (block 0, and block 1 for an 8-byte CC on 4-byte blocks).
    /// - Throws: `.notNDEFFormatted`; `.invalidTagData` when the CC describes more memory than
    ///   the tag has.
    public func readCapabilityContainer() throws(TagError) -> Type5CapabilityContainer {
        if let cc { return cc }
        let (blockSize, blockCount) = try readLayout()
        // The CC's 4 bytes (8 when byte 2 is 00) from as many blocks as they span: Get System Info
        // allows blocks of 1 to 32 bytes (docs/tags-and-readers.md §7.4, §7.6).
        var bytes: [UInt8] = []
        func readCC(upTo wanted: Int) throws(TagError) {
            while bytes.count < wanted, bytes.count / blockSize < blockCount {
                bytes += try readBlocks(bytes.count / blockSize, count: 1)
            }
        }
        try readCC(upTo: 4)
        if bytes.count >= 3, bytes[2] == 0x00 { try readCC(upTo: 8) }
        let parsed = try Type5CapabilityContainer(bytes: bytes)
        let memory = blockSize * blockCount
        guard parsed.dataAreaSize <= memory else {
            throw TagError.invalidTagData("the CC describes \(parsed.dataAreaSize) bytes; the tag has \(blockCount) blocks of \(blockSize) (\(memory) bytes)")
        }
        guard parsed.dataAreaSize > parsed.length else {
            throw TagError.invalidTagData("the CC describes \(parsed.dataAreaSize) bytes, no room for a TLV")
        }
        cc = parsed
        return parsed
    }

    /// Bytes `offset ..< offset + count` of the tag's memory.
    func bytes(at offset: Int, count: Int) throws(TagError) -> [UInt8] {
        guard count > 0 else { return [] }
        let (blockSize, _) = try readLayout()
        let first = offset / blockSize
        let last = (offset + count - 1) / blockSize
        let data = try readBlocks(first, count: last - first + 1)
        let start = offset - first * blockSize
        return Array(data[start ..< start + count])
    }

    /// The TLV area: from the end of the CC to the end of what the CC describes.
    func tlvArea() throws(TagError) -> Range<Int> {
        let cc = try readCapabilityContainer()
        return cc.length ..< cc.dataAreaSize
    }

    /// What the tag is, from the exchanges needed (none after `readNDEF()`).
    public func inspect() throws(TagError) -> Type5TagInfo {
        let (blockSize, blockCount) = try readLayout()
        var info = Type5TagInfo(uid: uid, product: product, systemInfo: systemInfo, blockSize: blockSize,
                                blockCount: blockCount, capabilityContainer: nil, capacity: 0, isWritable: false)
        do throws(TagError) {
            let cc = try readCapabilityContainer()
            info.capabilityContainer = cc
            info.capacity = Self.capacity(areaSize: cc.dataAreaSize - cc.length)
            info.isWritable = cc.isWritable
        } catch TagError.notNDEFFormatted {
            info.capacity = 0
        }
        return info
    }

    /// Largest message in a TLV area of `areaSize` bytes: `03 len` (or `03 FF hi lo`) + message.
    static func capacity(areaSize: Int) -> Int {
        areaSize - 4 >= 0xFF ? min(areaSize - 4, 0xFFFE) : max(0, areaSize - 2)
    }
}
