extension Type2Tag {
    /// Replaces the NDEF message tear-safely (see `Type2WritePlan`): only changed pages are written,
    /// ascending after the commit page; reserved bytes are kept.
    /// - Throws: `TagError.readOnly` (CC write access not granted), `.messageTooLarge`,
    ///   `.notNDEFFormatted` / `.invalidTagData` (the tag's structure), and the link's errors
    ///   (`.nak` or `.status(63 00)` for a refused page, `.tagLost`).
    public func writeNDEF(_ message: [UInt8]) throws(TagError) {
        try guarded { () throws(TagError) in
            let (layout, _) = try readLayout()
            guard layout.capabilityContainer.isWritable else { throw TagError.readOnly }
            let plan = try Type2WritePlan(layout: layout, message: message)
            try cache.fetch(pages: plan.pages)
            for write in plan.writes(current: cache.page) {
                try link.write(page: write.page, data: write.data)
                cache.store(page: write.page, data: write.data)
            }
        }
    }
}
