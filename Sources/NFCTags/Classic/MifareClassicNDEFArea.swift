/// Where NDEF lives on a MIFARE Classic card (NXP AN1305 §6.4): the data blocks of the sectors the
/// MAD names `03 E1`, from the first such sector on as long as they follow each other, trailers
/// (and the MAD sectors 0 and 16) left out; in those bytes the TLVs of NFC Forum Type 2 (`00`
/// NULL, `03` NDEF message, `FD` proprietary, `FE` terminator; a length of one byte, or `FF` and two).
public struct MifareClassicNDEFArea: Equatable, Sendable {
    public let layout: MifareClassicLayout
    /// The NDEF sectors, in order.
    public let sectors: [Int]

    /// - Throws: `.notNDEFFormatted` when the MAD names no NDEF sector.
    public init(mad: MifareApplicationDirectory, layout: MifareClassicLayout) throws(TagError) {
        let named = mad.ndefSectors
        guard let first = named.first else { throw TagError.notNDEFFormatted("the MAD names no NDEF sector (03 E1)") }
        var run = [first]
        // The MAD2 sector sits between 15 and 17 without an entry: it does not end the run.
        while let next = named.first(where: { $0 > run.last! }), next == run.last! + 1 || (run.last! == 15 && next == 17) {
            run.append(next)
        }
        self.layout = layout
        self.sectors = run
    }

    /// The card blocks of the area, in order.
    public var blocks: [Int] { sectors.flatMap { Array(layout.dataBlocks(ofSector: $0)) } }

    /// Bytes in the area.
    public var size: Int { blocks.count * MifareClassicLayout.blockSize }

    /// The largest NDEF message the area holds: its size less the TLV header (2 bytes up to 254,
    /// else 4) and the terminator when there is room for one.
    public var capacity: Int {
        let short = size - 2
        return short <= 0xFE ? max(0, short) : size - 4
    }

    /// What the TLVs in `prefix` (the area's first bytes, as read so far) say.
    public enum Scan: Equatable, Sendable {
        /// The NDEF message's value starts at `valueOffset` and is `length` bytes (all of it in `prefix`).
        case message(valueOffset: Int, length: Int)
        /// Read the area up to `bytes` and scan again.
        case needMore(bytes: Int)
        /// A terminator, or the area's end, before any NDEF TLV.
        case noMessage
    }

    /// - Throws: `.invalidTagData` when a TLV runs past the area.
    public func scan(_ prefix: [UInt8]) throws(TagError) -> Scan {
        var offset = 0
        func need(_ end: Int) throws(TagError) -> Bool {
            guard end <= size else {
                throw TagError.invalidTagData("a TLV at byte \(offset) runs past the \(size)-byte NDEF area of sectors \(sectors.map(String.init).joined(separator: ", "))")
            }
            return end <= prefix.count
        }
        while offset < size {
            guard try need(offset + 1) else { return .needMore(bytes: offset + 1) }
            let type = prefix[offset]
            if type == 0x00 { offset += 1; continue }
            if type == 0xFE { return .noMessage }
            guard try need(offset + 2) else { return .needMore(bytes: offset + 2) }
            var length = Int(prefix[offset + 1])
            var value = offset + 2
            if length == 0xFF {
                guard try need(offset + 4) else { return .needMore(bytes: offset + 4) }
                length = Int(prefix[offset + 2]) << 8 | Int(prefix[offset + 3])
                value = offset + 4
            }
            guard try need(value + length) else { return .needMore(bytes: value + length) }
            if type == 0x03 { return .message(valueOffset: value, length: length) }
            offset = value + length
        }
        return .noMessage
    }

    /// The area's bytes for `message`: its TLV, a terminator where room is left, zeros after.
    /// - Throws: `.messageTooLarge`.
    public func image(of message: [UInt8]) throws(TagError) -> [UInt8] {
        guard message.count <= capacity else { throw TagError.messageTooLarge(size: message.count, capacity: capacity) }
        let header: [UInt8] = message.count < 0xFF ? [0x03, UInt8(message.count)] : [0x03, 0xFF, UInt8(message.count >> 8), UInt8(message.count & 0xFF)]
        var bytes = header + message
        if bytes.count < size { bytes.append(0xFE) }
        return bytes + [UInt8](repeating: 0, count: size - bytes.count)
    }
}
