/// The one rule by which `--reader` (and the kiosk's `readers`) picks readers, used by every
/// command and by sessions: a query names the reader called exactly so, else the one reader
/// whose name contains it, ignoring case (`acr122` → `ACS ACR122U PICC Interface 00 00`).
/// A query that several readers contain is refused with their names, never "all of them".
public enum ReaderSelection {
    /// The name prefix of libnfc devices: `libnfc:<connstring>`.
    public static let libnfcPrefix = "libnfc:"

    /// `query` could name `name`: equal, or contained ignoring case (an empty query names nothing).
    public static func matches(_ query: String, name: String) -> Bool {
        guard !query.isEmpty else { return false }
        return name == query || name.range(of: query, options: .caseInsensitive) != nil
    }

    /// The readers `queries` select among `readers`: every reader for no query; else, per query, the
    /// reader named exactly so, or the one reader containing it. A query that names no reader
    /// (yet) selects nothing, so the result may be empty.
    /// - Throws: `ReaderError.ambiguousReader(query, matches:)` for a query several readers contain
    ///   and none equals.
    public static func select(_ queries: [String], from readers: [ReaderInfo]) throws(ReaderError) -> [ReaderInfo] {
        guard !queries.isEmpty else { return readers }
        var chosen: [ReaderInfo] = []
        for query in queries {
            for reader in try candidates(for: query, in: readers) where !chosen.contains(reader) {
                chosen.append(reader)
            }
        }
        return readers.filter { chosen.contains($0) }
    }

    /// Whether `reader`, arriving while `current` are in use, joins a session selected by
    /// `queries`: it must match a query, and not one that a reader in use already matches only
    /// by a part of its name (that would make the query name two readers).
    public static func admits(_ reader: ReaderInfo, queries: [String], current: [ReaderInfo]) -> Bool {
        guard !queries.isEmpty else { return true }
        return queries.contains { query in
            guard matches(query, name: reader.name) else { return false }
            if reader.name == query { return true }
            return !current.contains { $0.name != reader.name && $0.name != query && matches(query, name: $0.name) }
        }
    }

    /// The libnfc connstrings that queries of the form `libnfc:<connstring>` name, in order, once each.
    public static func libnfcDevices(in queries: [String]) -> [String] {
        var devices: [String] = []
        for query in queries where query.hasPrefix(libnfcPrefix) {
            let connstring = String(query.dropFirst(libnfcPrefix.count))
            if !connstring.isEmpty, !devices.contains(connstring) { devices.append(connstring) }
        }
        return devices
    }

    /// Chooses one of `readers`.
    ///
    /// - `query` nil: the only reader when exactly one is attached.
    /// - Otherwise the reader `select([query], from:)` picks.
    /// - Throws: `ReaderError.noReaders` (none attached), `.readerNotFound(query)` (no match),
    ///   `.ambiguousReader(query, matches:)` (several matches, or several readers and no query;
    ///   then `query` is "").
    public static func select(_ query: String?, from readers: [ReaderInfo]) throws(ReaderError) -> ReaderInfo {
        guard !readers.isEmpty else { throw ReaderError.noReaders }
        guard let query else {
            if readers.count == 1 { return readers[0] }
            throw ReaderError.ambiguousReader("", matches: readers.map(\.name))
        }
        guard let reader = try candidates(for: query, in: readers).first else { throw ReaderError.readerNotFound(query) }
        return reader
    }

    /// The exact match, else the single containing match; none when nothing matches.
    private static func candidates(for query: String, in readers: [ReaderInfo]) throws(ReaderError) -> [ReaderInfo] {
        if let exact = readers.first(where: { $0.name == query }) { return [exact] }
        let matching = readers.filter { matches(query, name: $0.name) }
        guard matching.count <= 1 else { throw ReaderError.ambiguousReader(query, matches: matching.map(\.name)) }
        return matching
    }
}
