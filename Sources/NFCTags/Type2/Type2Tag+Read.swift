extension Type2Tag {
    /// Reads the NDEF message: the bytes of the first NDEF TLV, reserved bytes skipped.
    /// - Returns: the message bytes; empty for an empty NDEF TLV (`03 00`).
    /// - Throws: `TagError.notNDEFFormatted` (bad CC, or no NDEF TLV), `.invalidTagData`
    ///   (a TLV past the data area), and the link's errors. Never partial data.
    public func readNDEF() throws(TagError) -> [UInt8] {
        try guarded { () throws(TagError) in
            let (layout, _) = try readLayout()
            guard let ndef = layout.ndef else {
                throw TagError.notNDEFFormatted("the data area holds no NDEF message TLV")
            }
            let addresses = try layout.addresses(from: ndef.valueStart, count: ndef.length)
            let pages = Array(Set(addresses.map { $0 / 4 }))
            if let beyond = pages.filter({ $0 * 4 >= cache.memoryEnd }).min() {
                // Never read past the chip (an ACR122U locks up after a refused page).
                throw TagError.invalidTagData("the NDEF TLV runs to page \(beyond), past the chip's last page \(cache.memoryEnd / 4 - 1)")
            }
            // Only the message's pages are read (a refused 16-byte READ is retried for its page
            // alone by the link), so a page refused now is one the message needs: `.pageRefused`.
            try cache.fetch(pages: pages)
            return try addresses.map { (address) throws(TagError) in try cache.byte(at: address) }
        }
    }
}
