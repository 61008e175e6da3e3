extension Type2Tag {
    /// Lock bits are one-time programmable (NFC Forum Type 2 Tag §2.2.1): permanent.
    public func lockKind() throws(TagError) -> NDEFLockKind { .permanent }

    /// Makes the tag permanently read-only, in this order:
    /// 1. CC write access → `F` (page 3; the CC is OTP, so the nibble is OR-ed to `F`);
    /// 2. static lock bytes (page 2 bytes 2-3 → `FF FF`: pages 3-15 and their block-lock bits);
    /// 3. dynamic lock bits (from the Lock Control TLVs, else the product's position).
    ///
    /// No data page changes, so a torn lock never damages the message. The CC goes first so that a
    /// torn lock reads as read-only; locking pages first could leave a tag whose CC still says
    /// writable while some pages refuse writes, and a later write would stop half way.
    /// Calling it again on a torn (or already) locked tag completes the remaining steps.
    /// - Throws: `.notNDEFFormatted` / `.invalidTagData` for the tag's structure, and the link's errors.
    public func writeLock() throws(TagError) {
        try guarded { () throws(TagError) in
            let (layout, product) = try readLayout()
            let areas = layout.dynamicLockAreas(product: product)
            var pages: Set<Int> = [2, 3]
            for area in areas { for a in area.range { pages.insert(a / 4) } }
            try cache.fetch(pages: Array(pages))

            var writes: [(Int, [UInt8])] = []
            var cc = cache.page(3)
            if cc[3] & 0x0F != 0x0F {
                cc[3] |= 0x0F
                writes.append((3, cc))
            }
            var staticLock = cache.page(2)
            if staticLock[2] != 0xFF || staticLock[3] != 0xFF {
                staticLock[2] = 0xFF
                staticLock[3] = 0xFF
                writes.append((2, staticLock))
            }
            var dynamic: [Int: [UInt8]] = [:]
            for area in areas {
                for (i, bits) in area.lockedBytes.enumerated() {
                    let address = area.address + i
                    var page = dynamic[address / 4] ?? cache.page(address / 4)
                    page[address % 4] |= bits
                    dynamic[address / 4] = page
                }
            }
            for page in dynamic.keys.sorted() where dynamic[page] != cache.page(page) {
                writes.append((page, dynamic[page] ?? []))
            }
            for (page, data) in writes {
                try link.write(page: page, data: data)
                cache.store(page: page, data: data)
            }
        }
    }
}
