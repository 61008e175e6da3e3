/// NDEF on an NFC Forum Type 3 tag (docs/tags-and-readers.md §9.3) over `FeliCaTag` commands:
/// the attribute block says how many blocks each exchange may carry, reads take Nbr blocks per
/// Read Without Encryption, writes raise WriteF before the data and lower it (with the new Ln)
/// last, then read the attribute block back.
public final class Type3Tag: NDEFTagOperations {
    public let feliCa: FeliCaTag
    /// The attribute block as read or written last.
    public private(set) var attributes: Type3AttributeBlock?

    public init(feliCa: FeliCaTag) {
        self.feliCa = feliCa
    }

    /// Selects the NDEF system `12FC` unless Polling already did (one exchange when needed).
    /// - Throws: `TagError.notNDEFFormatted` when the card has no such system.
    func selectNDEFSystem() throws(TagError) {
        guard feliCa.systemCode != FeliCaSystemCode.ndef else { return }
        do throws(TagError) {
            try feliCa.polling(systemCode: FeliCaSystemCode.ndef)
        } catch {
            // Polling a system the card lacks gets no answer, which readers report as a lost tag,
            // a timeout or (libnfc) an RF transmission error; so does a card that left. Lost is
            // not "not formatted" (docs/faults.md): a card that still answers a Polling of any
            // system (FFFF) lacks 12FC; one that does not is gone, and that error stands.
            switch error {
            case .tagLost, .timeout, .transport:
                try feliCa.polling(systemCode: FeliCaSystemCode.wildcard)
                throw TagError.notNDEFFormatted("the FeliCa card has no NDEF system (12FC)")
            default: throw error
            }
        }
    }

    /// Reads block 0 and parses it (one exchange, plus Polling for `12FC` when needed).
    public func readAttributes() throws(TagError) -> Type3AttributeBlock {
        try selectNDEFSystem()
        let block = try feliCa.readBlocks([0], service: FeliCaServiceCode.readOnly)
        let parsed = try Type3AttributeBlock(block: block[0])
        attributes = parsed
        return parsed
    }

    public func queryNDEFStatus() throws(TagError) -> (status: NDEFTagStatus, capacity: Int) {
        let attributes: Type3AttributeBlock
        do throws(TagError) {
            if let known = self.attributes { attributes = known } else { attributes = try readAttributes() }
        } catch TagError.notNDEFFormatted {
            return (.notSupported, 0)
        }
        return (attributes.writable && attributes.nbw > 0 ? .readWrite : .readOnly, attributes.capacity)
    }

    /// The NDEF message: block 0, then ⌈Ln/16⌉ blocks in groups of Nbr.
    /// - Throws: `TagError.invalidTagData` when WriteF says a write was interrupted or Ln exceeds
    ///   the NDEF area; `TagError.feliCaStatus` when the card refuses a read.
    public func readNDEF() throws(TagError) -> [UInt8] {
        let attributes = try readAttributes()
        guard !attributes.writeInProgress else {
            throw TagError.invalidTagData("a write to this tag was interrupted (WriteF 0F)")
        }
        guard attributes.length <= attributes.capacity else {
            throw TagError.invalidTagData("Ln \(attributes.length) exceeds the \(attributes.capacity) bytes of \(attributes.nmaxb) blocks")
        }
        var data: [UInt8] = []
        data.reserveCapacity(attributes.messageBlocks * 16)
        let blocks = (0..<attributes.messageBlocks).map { $0 + 1 }
        for group in Self.groups(blocks, at: attributes.nbr, fitting: Self.readFrame) {
            data += try feliCa.readBlocks(group, service: FeliCaServiceCode.readOnly).flatMap { $0 }
        }
        return Array(data.prefix(attributes.length))
    }

    /// Writes `message` tear-safely: WriteF `0F`, the data, then Ln with WriteF `00`, read back.
    public func writeNDEF(_ message: [UInt8]) throws(TagError) {
        var attributes = try readAttributes()
        guard attributes.writable, attributes.nbw > 0 else { throw TagError.readOnly }
        guard message.count <= attributes.capacity else {
            throw TagError.messageTooLarge(size: message.count, capacity: attributes.capacity)
        }
        // The whole plan before the first byte: every frame within the limits (docs/tags-and-readers.md §9.3).
        let padded = message + [UInt8](repeating: 0, count: (16 - message.count % 16) % 16)
        let blocks = stride(from: 0, to: padded.count, by: 16).map { Array(padded[$0..<($0 + 16)]) }
        let numbers = Array(blocks.indices.map { $0 + 1 })
        let plan = Self.groups(numbers, at: attributes.nbw, fitting: Self.writeFrame)
        attributes.writeInProgress = true
        try writeAttributes(attributes)
        for group in plan {
            try feliCa.writeBlocks(group, service: FeliCaServiceCode.readWrite, data: group.map { blocks[$0 - 1] })
        }
        attributes.writeInProgress = false
        attributes.length = message.count
        try writeAttributes(attributes)
        let check = try feliCa.readBlocks([0], service: FeliCaServiceCode.readOnly)[0]
        guard check == attributes.bytes else {
            throw TagError.invalidTagData("the attribute block read back differs from the one written")
        }
    }

    /// Clears RWFlag; on FeliCa Lite(-S) also write-protects the blocks and the system blocks in
    /// the MC block (`88`), keeping its NDEF bit (docs/tags-and-readers.md §9.4).
    public func writeLock() throws(TagError) {
        var attributes = try readAttributes()
        guard attributes.writable else { return }
        attributes.writable = false
        try writeAttributes(attributes)
        if feliCa.product.hasLiteMemoryMap {
            var mc = try feliCa.readBlocks([Self.memoryConfigurationBlock], service: FeliCaServiceCode.readOnly)[0]
            mc[0] = 0x00
            mc[1] = 0x00
            mc[2] = 0x00
            try feliCa.writeBlocks([Self.memoryConfigurationBlock], service: FeliCaServiceCode.readWrite, data: [mc])
        }
    }

    /// FeliCa Lite(-S): the MC block's write protection cannot be undone. FeliCa Standard: only
    /// the attribute block's RWFlag changes, which any writer can set again.
    public func lockKind() throws(TagError) -> NDEFLockKind {
        if feliCa.product.hasLiteMemoryMap { return .permanent }
        return .reversible("a FeliCa Standard card keeps its blocks writable: locking clears the attribute block's RWFlag, which a writer can set again")
    }

    /// FeliCa Lite(-S) memory configuration block.
    public static let memoryConfigurationBlock = 0x88

    private func writeAttributes(_ attributes: Type3AttributeBlock) throws(TagError) {
        try feliCa.writeBlocks([0], service: FeliCaServiceCode.readWrite, data: [attributes.bytes])
        self.attributes = attributes
    }

    /// Largest FeliCa frame, command or answer, on every path: LEN is one byte (255), a PN53x's
    /// direct transmit through PC/SC carries at most 252 (`PCSCFeliCaChannel`), and an answer
    /// wrapped in a transparent exchange's data objects must still fit a short APDU's 256.
    static let maxFrame = 252

    /// Bytes of a Read Without Encryption answer for `blocks` (LEN, code, IDm, status flags,
    /// count, 16 per block): the command itself is shorter.
    static func readFrame(_ blocks: ArraySlice<Int>) -> Int { 13 + 16 * blocks.count }

    /// Bytes of a Write Without Encryption command for `blocks` (LEN, code, IDm, one service,
    /// the block list with 2- or 3-byte elements, 16 data bytes per block).
    static func writeFrame(_ blocks: ArraySlice<Int>) -> Int {
        14 + blocks.reduce(0) { $0 + ($1 > 0xFF ? 3 : 2) + 16 }
    }

    /// `blocks` in runs of at most `limit` (Nbr or Nbw: a tag may announce up to 255), each
    /// within `maxFrame` by `frame`, so that no frame is refused after the write began.
    static func groups(_ blocks: [Int], at limit: Int, fitting frame: (ArraySlice<Int>) -> Int) -> [[Int]] {
        var groups: [[Int]] = []
        var start = 0
        while start < blocks.count {
            var end = start + 1
            while end < blocks.count, end - start < max(1, limit), frame(blocks[start...end]) <= maxFrame { end += 1 }
            groups.append(Array(blocks[start..<end]))
            start = end
        }
        return groups
    }
}
