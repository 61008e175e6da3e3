import NFCTags

extension NFCNDEFTag {
    /// nfctap's `write --format` on a blank MIFARE Classic: the MAD, the NFC Forum keys and NXP's
    /// access bits (`MifareClassicTag.format()`, docs/tags-and-readers.md §10). Core NFC has no such
    /// call (nor MIFARE Classic). False when this is not a MIFARE Classic of a session.
    /// - Throws: `NFCReaderError` as the other tag operations (the card is not blank, a sector no
    ///   known key opens).
    package func formatBlankMifareClassic() async throws -> Bool {
        guard let tag = self as? any SessionTag else { return false }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bool, any Error>) in
            tag.engine.perform(tag, kind: .write, { connection -> Bool in
                guard let classic = try connection.ndef() as? MifareClassicTag else { return false }
                try classic.format()
                return true
            }, completion: { result in
                continuation.resume(with: result.mapError { $0 as any Error })
            })
        }
    }
}
