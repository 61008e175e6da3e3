import NFCTags

extension NFCNDEFTag {
    /// nfctap's `write` on a blank ISO 15693 tag (ICODE, ST25DV, Tag-it): writes the Type 5 CC and an
    /// empty NDEF message (`Type5Tag.format()`, docs/tags-and-readers.md §7.6). Core NFC has no such
    /// call; the CLI uses it before writing. False when this is not an ISO 15693 tag of a session or
    /// the tag is not blank (nothing is written then).
    /// - Throws: `NFCReaderError` as the other tag operations (e.g. 102 when a block is locked).
    package func formatBlankType5Tag() async throws -> Bool {
        guard let tag = self as? ISO15693SessionTag else { return false }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bool, any Error>) in
            tag.engine.perform(tag, kind: .write, { connection -> Bool in
                guard let type5 = try connection.ndef() as? Type5Tag else { return false }
                do {
                    try type5.format()
                } catch TagError.invalidTagData {
                    return false // not blank (a label holding data): left alone
                }
                return true
            }, completion: { result in
                continuation.resume(with: result.mapError { $0 as any Error })
            })
        }
    }
}
