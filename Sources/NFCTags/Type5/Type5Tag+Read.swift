import NDEF

/// Reading NDEF from a Type 5 tag (docs/tags-and-readers.md §7.7).
extension Type5Tag {
    /// Where the NDEF TLV sits: offset of its value, its length, the offset of its first byte.
    struct NDEFTLVPosition: Equatable {
        var tlvOffset: Int
        var valueOffset: Int
        var length: Int
    }

    /// Walks the TLVs from the end of the CC: `00` NULL is skipped, `03` is the message, `FD` and
    /// other proprietary TLVs are stepped over, `FE` ends the area. nil when no NDEF TLV is found.
    /// - Throws: `.invalidTagData` when a TLV runs past the area the CC describes.
    func findNDEFTLV() throws(TagError) -> NDEFTLVPosition? {
        let area = try tlvArea()
        var offset = area.lowerBound
        // The first read brings the TLV header and, with Read Multiple, most short messages.
        _ = try bytes(at: offset, count: min(area.count, readAheadBytes))
        while offset < area.upperBound {
            let type = try bytes(at: offset, count: 1)[0]
            if type == 0x00 { offset += 1; continue }
            if type == 0xFE { return nil }
            guard offset + 1 < area.upperBound else { throw TagError.invalidTagData("TLV \([type].hexString) at byte \(offset) has no length") }
            var length = Int(try bytes(at: offset + 1, count: 1)[0])
            var valueOffset = offset + 2
            if length == 0xFF {
                guard offset + 3 < area.upperBound else { throw TagError.invalidTagData("TLV at byte \(offset) is cut in its length") }
                let two = try bytes(at: offset + 2, count: 2)
                length = Int(two[0]) << 8 | Int(two[1])
                valueOffset = offset + 4
            }
            guard valueOffset + length <= area.upperBound else {
                throw TagError.invalidTagData("TLV \([type].hexString) at byte \(offset) claims \(length) bytes; the CC's area ends at byte \(area.upperBound)")
            }
            if type == 0x03 { return NDEFTLVPosition(tlvOffset: offset, valueOffset: valueOffset, length: length) }
            offset = valueOffset + length
        }
        return nil
    }

    /// Bytes the first TLV read asks for: what one Read Multiple brings when the tag allows it,
    /// else one block.
    var readAheadBytes: Int {
        guard useReadMultiple, let layout else { return 1 }
        return max(1, maxBytesPerRead / layout.blockSize) * layout.blockSize - (cc?.length ?? 0) % layout.blockSize
    }

    public func queryNDEFStatus() throws(TagError) -> (status: NDEFTagStatus, capacity: Int) {
        let info: Type5TagInfo
        do throws(TagError) {
            info = try inspect()
        } catch TagError.notNDEFFormatted {
            return (.notSupported, 0)
        }
        guard let cc = info.capabilityContainer else { return (.notSupported, 0) }
        return (cc.isWritable ? .readWrite : .readOnly, info.capacity)
    }

    /// The NDEF message bytes; empty for an empty NDEF TLV or a formatted tag without one.
    /// - Throws: `.notNDEFFormatted`, `.invalidTagData` for a CC or TLV beyond the memory, the
    ///   link's and tag's errors.
    public func readNDEF() throws(TagError) -> [UInt8] {
        let cc = try readCapabilityContainer()
        guard cc.readAccess == 0 else { throw TagError.unsupported("reading a Type 5 tag with read access \(cc.readAccess)") }
        guard let position = try findNDEFTLV() else { return [] }
        return try bytes(at: position.valueOffset, count: position.length)
    }
}
