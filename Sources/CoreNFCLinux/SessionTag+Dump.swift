import NFCTags

extension NFCNDEFTag {
    /// nfctap's `dump`: the tag's raw memory (`TagDump`), read on the session's connection with
    /// the family's own commands (`Type2Tag`, `MifareClassicTag` with the session's keys,
    /// `Type5Tag` `.dumpMemory()`). Core NFC has no such call.
    /// - Throws: `NFCReaderError` (1, unsupported feature, for Type 4 and FeliCa tags, whose
    ///   memory is files and services rather than pages).
    package func dumpMemory() async throws -> TagDump {
        guard let tag = self as? any SessionTag else {
            throw NFCReaderError(.readerErrorUnsupportedFeature, message: "not a tag of an nfctap session")
        }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<TagDump, any Error>) in
            tag.engine.perform(tag, kind: .read, { connection -> TagDump in
                let detected = connection.link.tag
                let memory: TagDump.Memory
                switch try connection.ndef() {
                case let type2 as Type2Tag: memory = .type2(try type2.dumpMemory())
                case let classic as MifareClassicTag: memory = .mifareClassic(try classic.dumpMemory())
                case let type5 as Type5Tag: memory = .iso15693(try type5.dumpMemory())
                default:
                    throw TagError.unsupported("dumping \(detected.technology.rawValue) tags (dump reads Type 2, MIFARE Classic and ISO 15693 memory)")
                }
                let nfcA = detected.technology != .type5
                return TagDump(uid: detected.uid, atqa: nfcA ? detected.atqa : nil, sak: nfcA ? detected.sak : nil, memory: memory)
            }, completion: { result in
                continuation.resume(with: result.mapError { $0 as any Error })
            })
        }
    }
}
