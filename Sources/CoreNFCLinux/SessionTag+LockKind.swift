import NFCTags

extension NFCNDEFTag {
    /// nfctap's `write --lock` asks this before writing anything: whether this tag, through this
    /// reader, can be locked, and whether the chip makes that permanent (`NDEFTagOperations.lockKind`).
    /// Core NFC has no such call. A tag of no session is taken as permanent (Core NFC's word).
    /// - Throws: `NFCReaderError` (1, unsupported feature, when the reader cannot pass the lock commands).
    package func lockKind() async throws -> NDEFLockKind {
        guard let tag = self as? any SessionTag else { return .permanent }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<NDEFLockKind, any Error>) in
            tag.engine.perform(tag, kind: .command, { connection -> NDEFLockKind in
                try connection.ndef().lockKind()
            }, completion: { result in
                continuation.resume(with: result.mapError { $0 as any Error })
            })
        }
    }
}
