/// Picks the reader a command uses from `--reader` (specs: CLI `--reader`).
public enum ReaderSelection {
    /// Chooses one of `readers`.
    ///
    /// - `query` nil: the only reader when exactly one is attached.
    /// - Otherwise a reader whose name equals `query` exactly, else the one reader whose name
    ///   contains it case-insensitively (`acr122` → `ACS ACR122U PICC Interface 00 00`).
    /// - Throws: `ReaderError.noReaders` (none attached), `.readerNotFound(query)` (no match),
    ///   `.ambiguousReader(query, matches:)` (several matches, or several readers and no query;
    ///   then `query` is "").
    public static func select(_ query: String?, from readers: [ReaderInfo]) throws -> ReaderInfo {
        guard !readers.isEmpty else { throw ReaderError.noReaders }
        guard let query else {
            if readers.count == 1 { return readers[0] }
            throw ReaderError.ambiguousReader("", matches: readers.map(\.name))
        }
        if let exact = readers.first(where: { $0.name == query }) { return exact }
        let needle = query.lowercased()
        let matches = readers.filter { !needle.isEmpty && $0.name.lowercased().contains(needle) }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw ReaderError.readerNotFound(query)
        default: throw ReaderError.ambiguousReader(query, matches: matches.map(\.name))
        }
    }
}
