extension Type2Tag {
    /// Every page of the chip GET_VERSION (or the CC) names (the link is asked to try its raw
    /// path on a reader nfctap does not know), FAST_READ where the chip and link
    /// have it, else READ 4 pages at a time; then READ_SIG (`3C 00`, NTAG21x / Ultralight EV1
    /// datasheets §10.7) where raw commands pass. Pages from the first the tag refuses (a
    /// password's PROT range) on are left nil: after a NAK the chip is mute until re-selected.
    /// - Throws: `.unsupported` when the chip, and so its memory size, cannot be told (reading on
    ///   would wrap around to page 0); `.malformedReply` for an answer that is not whole pages;
    ///   the link's errors (`.tagLost`).
    public func dumpMemory() throws(TagError) -> Type2Memory {
        offerRawCommands()
        let chip = try product
        guard let total = chip.totalPages else {
            throw TagError.unsupported("dumping a Type 2 tag whose chip nfctap cannot tell (no GET_VERSION through this reader, no known CC size)")
        }
        var pages = [[UInt8]?](repeating: nil, count: total)
        let fastPages = cache.fastReadPages
        var page = 0
        reading: while page < total {
            let data: [UInt8]
            do throws(TagError) {
                if fastPages > 0 {
                    data = try link.fastRead(from: page, to: min(total, page + fastPages) - 1)
                } else {
                    data = try link.read(page: page)
                }
            } catch TagError.nak {
                break reading
            } catch let TagError.status(sw1, sw2) {
                if page == 0 { throw TagError.status(sw1: sw1, sw2: sw2) }
                break reading
            }
            guard data.count >= 4, data.count % 4 == 0 else {
                throw TagError.malformedReply("page \(page) came back as \(data.count) bytes, not whole pages")
            }
            for i in 0 ..< data.count / 4 where page + i < total {
                pages[page + i] = Array(data[i * 4 ..< i * 4 + 4])
            }
            page += data.count / 4
        }
        var signature: [UInt8]?
        if answeredVersion != nil, link.canSendRawCommands, pages.last != nil {
            signature = try? link.transceiveRaw([0x3C, 0x00])
            if signature?.count != 32 { signature = nil }
        }
        return Type2Memory(product: chip, version: answeredVersion, signature: signature, pages: pages)
    }
}
