// How many bytes each READ BINARY / UPDATE BINARY moves (docs/tags-and-readers.md §2).

/// Per-command byte limits for one tag and reader.
struct Type4Limits {
    /// Data bytes per B0 read (Le) and per D6 write (Lc).
    let read: Int
    let write: Int
    /// Data bytes per B1 read and D7 write, after the `54 …` and `53 len` wrappers.
    let odoRead: Int
    let odoWrite: Int

    init(cc: Type4CapabilityContainer, extendedLength: Bool) {
        let apduLimit = extendedLength ? 0xFFFF : 0xFF
        read = min(cc.maxResponseLength, apduLimit)
        write = min(cc.maxCommandLength, apduLimit)
        odoRead = Type4DataObjects.largestPayload(fitting: read)
        // Lc = 5 (offset object) + 53 header + data.
        odoWrite = Type4DataObjects.largestPayload(fitting: write - 5)
    }
}

extension Type4Tag {
    /// Size of the next chunk at `offset` with `remaining` bytes to go.
    ///
    /// B0/D6 address offsets up to 7FFF; past that only mapping 3.0 tags take B1/D7. On a v2.0
    /// tag a chunk that would leave the next start beyond 7FFF is cut to end at 7FFF, so the last
    /// one can start there; what lies beyond that last chunk is out of reach.
    /// - Throws: `TagError.unsupported` when the data cannot be addressed.
    func nextChunk(offset: Int, remaining: Int, limit: Int, odoLimit: Int, cc: Type4CapabilityContainer) throws(TagError) -> Int {
        if offset <= Type4.maxShortOffset {
            var n = min(limit, remaining)
            if !cc.usesExtendedNDEFLength, n < remaining, offset + n > Type4.maxShortOffset {
                n = Type4.maxShortOffset - offset
            }
            guard n > 0 else {
                throw TagError.unsupported("NDEF data beyond offset \(offset + limit) is out of reach of mapping \(cc.majorVersion).0 commands")
            }
            return n
        }
        guard cc.usesExtendedNDEFLength else {
            throw TagError.unsupported("offset \(offset) beyond 7FFFh on a mapping \(cc.majorVersion).0 tag")
        }
        guard offset <= Type4.maxODOOffset else {
            throw TagError.unsupported("offset \(offset) beyond the 3-byte offset data object")
        }
        return min(odoLimit, remaining)
    }
}
