import NFCTags
import ReaderCore
import RecordOutput

/// The `"mifareClassic"` object of `readers --json` for a MIFARE Classic card: its layout, and
/// what its MIFARE Application Directory lists (NXP AN10787), read with the public MAD key.
/// `mad` is null for a card without one (a badge, a blank card): "MIFARE Classic, no NDEF".
package enum MifareClassicReaderDetails {
    package struct Details: Sendable {
        var layout: MifareClassicLayout
        /// nil: no MAD (or it could not be read, `madError` says why).
        var mad: MifareApplicationDirectory?
        var madError: String?

        /// "MIFARE Classic 1K, NDEF in sectors 1–15", "MIFARE Classic 4K, no NDEF (MAD: 4801 in sector 1)".
        var summary: String {
            guard let mad else { return "\(layout.productName), no NDEF" + (madError.map { " (\($0))" } ?? "") }
            let ndef = mad.ndefSectors
            let others = Self.groups(mad.applications.filter { $0.value != MifareApplicationDirectory.ndefEntry })
            var text = layout.productName + (ndef.isEmpty ? ", no NDEF" : ", NDEF in sectors \(Self.ranges(ndef))")
            if !others.isEmpty {
                text += " (MAD: " + others.map { "\($0.aid) in sector\($0.sectors.count == 1 ? "" : "s") \(Self.ranges($0.sectors))" }
                    .joined(separator: ", ") + ")"
            }
            return text
        }

        var json: JSONValue {
            var fields: [(String, JSONValue)] = [("layout", .string(layout.rawValue)), ("sectors", .int(layout.sectorCount))]
            if let mad {
                fields.append(("mad", .object([
                    ("version", .int(mad.version)),
                    ("applications", .array(Self.groups(mad.applications).map { group in
                        .object([("aid", .string(group.aid)), ("sectors", .array(group.sectors.map { .int($0) }))])
                    })),
                ])))
            } else {
                fields.append(("mad", .null))
            }
            return .object(fields)
        }

        /// Sectors by application, in the order the first sector of each comes.
        static func groups(_ applications: [Int: [UInt8]]) -> [(aid: String, sectors: [Int])] {
            var order: [String] = []
            var sectors: [String: [Int]] = [:]
            for sector in applications.keys.sorted() {
                let aid = applications[sector]!.hexString
                if sectors[aid] == nil { order.append(aid) }
                sectors[aid, default: []].append(sector)
            }
            return order.map { ($0, sectors[$0]!) }
        }

        /// "1–15", "1, 3–5".
        static func ranges(_ sectors: [Int]) -> String {
            var parts: [String] = []
            var i = 0
            while i < sectors.count {
                var j = i
                while j + 1 < sectors.count, sectors[j + 1] == sectors[j] + 1 { j += 1 }
                parts.append(i == j ? "\(sectors[i])" : "\(sectors[i])–\(sectors[j])")
                i = j + 1
            }
            return parts.joined(separator: ", ")
        }
    }

    /// The directory through `backend`'s connection to `tag` (three block reads after one MAD-key
    /// authentication), closed again. nil when the tag is not a Classic the reader can authenticate.
    package static func details(backend: any ReaderBackend, tag: DetectedTag) -> Details? {
        guard tag.technology == .mifareClassic,
              let layout = MifareClassicLayout(sak: tag.sak ?? 0) ?? MifareClassicLayout(atr: tag.atr) else { return nil }
        guard let connection = try? backend.connect(to: tag, exclusive: false) else { return Details(layout: layout) }
        defer { connection.disconnect() }
        guard let link = connection.mifareClassic else { return Details(layout: layout) }
        do {
            return Details(layout: layout, mad: try MifareClassicTag(link: link, layout: layout).readDirectory())
        } catch TagError.notNDEFFormatted {
            return Details(layout: layout)
        } catch TagError.authenticationFailed {
            return Details(layout: layout, madError: "sector 0 opens to no well-known key")
        } catch {
            return Details(layout: layout, madError: "its directory could not be read: \(error)")
        }
    }
}
