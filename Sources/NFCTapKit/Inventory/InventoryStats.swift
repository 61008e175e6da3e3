import SafeText

/// Counts for the end-of-run summary.
package struct InventoryStats: Equatable {
    package struct Group: Equatable {
        package var taps = 0
        package var tags: Set<String> = []
    }

    package var taps = 0
    package var duplicates = 0
    /// Taps whose tag could not be read to the end (recorded with an error).
    package var incomplete = 0
    package var uids: Set<String> = []
    /// Per product (or tag type when the product is unknown).
    package var groups: [String: Group] = [:]

    package var uniqueTags: Int { uids.count }

    package mutating func add(_ record: InventoryRecord, complete: Bool) {
        taps += 1
        if record.duplicate { duplicates += 1 }
        if !complete { incomplete += 1 }
        uids.insert(record.uid)
        groups[record.product ?? Self.typeName(record.type), default: Group()].taps += 1
        groups[record.product ?? Self.typeName(record.type), default: Group()].tags.insert(record.uid)
    }

    package static func typeName(_ type: String) -> String {
        switch type {
        case "type2": return "Type 2"
        case "type4": return "Type 4"
        default: return "other tag"
        }
    }

    /// The summary printed on stderr when the inventory ends.
    package func summaryLines(destination: String) -> [String] {
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var lines = ["Inventory: \(plural(taps, "tap")), \(plural(uniqueTags, "unique tag")), \(plural(duplicates, "duplicate"))"
                     + (incomplete > 0 ? ", \(incomplete) not read to the end" : "")]
        for name in groups.keys.sorted() {
            guard let group = groups[name] else { continue }
            lines.append("  \(SafeText.escaped(name)): \(plural(group.taps, "tap")), \(plural(group.tags.count, "tag"))")
        }
        lines.append("Records: \(SafeText.escaped(destination))")
        return lines
    }
}
