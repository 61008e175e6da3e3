extension Type2Tag {
    /// Reads the NDEF message: the bytes of the first NDEF TLV, reserved bytes skipped.
    /// - Returns: the message bytes; empty for an empty NDEF TLV (`03 00`).
    /// - Throws: `TagError.notNDEFFormatted` (bad CC, or no NDEF TLV), `.invalidTagData`
    ///   (a TLV past the data area), and the link's errors. Never partial data.
    public func readNDEF() throws -> [UInt8] {
        try guarded {
            let (layout, _) = try readLayout()
            guard let ndef = layout.ndef else {
                throw TagError.notNDEFFormatted("the data area holds no NDEF message TLV")
            }
            let addresses = try layout.addresses(from: ndef.valueStart, count: ndef.length)
            try cache.fetch(pages: Array(Set(addresses.map { $0 / 4 })))
            return try addresses.map { try cache.byte(at: $0) }
        }
    }
}
