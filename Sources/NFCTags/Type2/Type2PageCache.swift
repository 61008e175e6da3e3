/// The bytes of one tag read so far, and the policy that fetches missing ones through a
/// `Type2Link` in as few exchanges as it allows.
///
/// With FAST_READ (NTAG21x / Ultralight EV1 behind a link that passes it) a run of missing pages
/// costs one exchange per `fastReadLimit` bytes. Otherwise each READ covers up to 16 bytes from
/// its page; links that return fewer (Identiv: 4) cost more exchanges but the same code path.
final class Type2PageCache {
    let link: Type2Link
    /// Byte `a` of the tag is `values[a]` once `known[a]`: a table over the addressable memory.
    private var values = [UInt8](repeating: 0, count: Type2Layout.addressableBytes)
    private var known = [Bool](repeating: false, count: Type2Layout.addressableBytes)
    /// Pages per FAST_READ; 0 when FAST_READ must not be used.
    var fastReadPages = 0
    /// Last page worth reading ahead to (end of the data area when known).
    var readAheadLastPage: Int?
    /// Bytes at or above this address are not stored (READ wraps around at the end of memory).
    var memoryEnd = Type2Layout.addressableBytes
    /// Set when the chip is not identified (no GET_VERSION): a MIFARE Ultralight has 16 pages and
    /// its READ rolls over to page 0 past page 0Fh, so a CC claiming more would have the UID served
    /// as "page 16" onward (fuzz finding Fuzz/findings/type2-read-wraps-past-memory).
    var guardAgainstRollOver = false
    private var rollOverChecked = false

    init(link: Type2Link) {
        self.link = link
    }

    func removeAll() {
        for i in known.indices { known[i] = false }
        rollOverChecked = false
    }

    /// The byte at `address` when it has been fetched (nil too for an address outside the table).
    private func cached(_ address: Int) -> UInt8? {
        known.indices.contains(address) && known[address] ? values[address] : nil
    }

    func hasPage(_ page: Int) -> Bool {
        (0 ..< 4).allSatisfy { cached(page * 4 + $0) != nil }
    }

    /// The 4 bytes of a page that has been fetched (zeros for bytes that are not).
    func page(_ page: Int) -> [UInt8] {
        (0 ..< 4).map { cached(page * 4 + $0) ?? 0 }
    }

    /// Records a page just written.
    func store(page: Int, data: [UInt8]) {
        for (i, b) in data.prefix(4).enumerated() { remember(b, at: page * 4 + i) }
    }

    private func remember(_ byte: UInt8, at address: Int) {
        guard known.indices.contains(address) else { return }
        values[address] = byte
        known[address] = true
    }

    /// One byte, fetching its page (and what the link returns beyond it) when missing.
    func byte(at address: Int) throws(TagError) -> UInt8 {
        if let b = cached(address) { return b }
        let page = address / 4
        // Unknown size: 4 pages, what a READ returns and what every Type 2 tag has from page 3 on.
        let last = max(page, readAheadLastPage ?? page + 3)
        try fetch(pages: Array(page ... last), readAhead: true)
        guard let b = cached(address) else {
            throw TagError.malformedReply("the tag did not return byte \(address)")
        }
        return b
    }

    /// Makes sure every page in `pages` is cached, reading only missing ones.
    ///
    /// `readAhead`: the pages are a wish list, only the first must be fetched (FAST_READ then takes
    /// the whole list up to the limit in one exchange). Otherwise all pages are fetched; a FAST_READ
    /// run spans from the first missing page to the furthest needed page within the limit.
    /// - Throws: `TagError` from the link; `.malformedReply` for an empty, too long or
    ///   wrong-length reply, or a READ that returns too few bytes to make progress.
    func fetch(pages: [Int], readAhead: Bool = false) throws(TagError) {
        let needed = pages.sorted()
        guard !needed.isEmpty else { return }
        while let first = needed.first(where: { !hasPage($0) }) {
            if fastReadPages > 0 {
                let limit = first + fastReadPages - 1
                let last = needed.last(where: { $0 <= limit }) ?? first
                let data = try link.fastRead(from: first, to: last)
                let expected = (last - first + 1) * 4
                guard data.count == expected else {
                    throw TagError.malformedReply("FAST_READ \(first)-\(last) returned \(data.count) bytes, expected \(expected)")
                }
                store(bytes: data, at: first * 4)
            } else {
                let data = try link.read(page: first)
                guard !data.isEmpty else { throw TagError.malformedReply("READ \(first) returned no data") }
                guard data.count <= 16 else {
                    throw TagError.malformedReply("READ \(first) returned \(data.count) bytes, more than 16")
                }
                store(bytes: data, at: first * 4)
                guard hasPage(first) else {
                    throw TagError.malformedReply("READ \(first) returned \(data.count) bytes, less than a page")
                }
                try checkRollOver()
            }
            if readAhead { return }
        }
    }

    /// Page 16 of a rolled-over READ is page 0: UID0 UID1 UID2 BCC0 with BCC0 = 88 ⊕ UID0 ⊕ UID1 ⊕ UID2
    /// (ISO 14443-3 cascade tag 88h). Only a page 16 that passes that check costs one READ of
    /// page 0 to compare, so tags that really have a page 16 pay nothing 255 times in 256.
    private func checkRollOver() throws(TagError) {
        guard guardAgainstRollOver, !rollOverChecked, hasPage(16) else { return }
        rollOverChecked = true
        let candidate = page(16)
        guard candidate[3] == 0x88 ^ candidate[0] ^ candidate[1] ^ candidate[2] else { return }
        let page0 = try link.read(page: 0)
        guard page0.count >= 4 else { throw TagError.malformedReply("READ 0 returned \(page0.count) bytes") }
        if Array(page0.prefix(4)) == candidate {
            throw TagError.invalidTagData(
                "the CC claims more memory than the chip has: page 16 reads back as page 0 (a 16-page MIFARE Ultralight rolls over)")
        }
    }

    private func store(bytes data: [UInt8], at address: Int) {
        for (i, b) in data.enumerated() where address + i < memoryEnd {
            remember(b, at: address + i)
        }
    }
}
