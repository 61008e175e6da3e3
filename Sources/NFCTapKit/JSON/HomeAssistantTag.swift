import NDEF

/// Home Assistant's tag URL, `https://www.home-assistant.io/tag/<id>`: HA's companion apps write
/// it when they make a tag, and HA's own readers (ESPHome's PN532 component, the apps) report
/// `<id>` as the tag id, so one physical tag is one HA tag whichever reader scans it. nfctap's
/// records carry it as `haTag` beside the UID, and Home Assistant discovery prefers it
/// (docs/fleet.md, "Home Assistant").
package enum HomeAssistantTag {
    package static let urlPrefix = "https://www.home-assistant.io/tag/"

    /// The HA tag id of `message`: that of its first URI record (or Smart Poster's) with HA's tag
    /// URL, when the id is 1–128 characters of A–Z, a–z, 0–9, `-` and `_` (HA's apps write a
    /// UUID); anything else is not an HA tag.
    package static func id(in message: NDEFMessage) -> String? {
        for record in message.records {
            let uri: String
            switch try? record.parsed(mode: .relaxed) {
            case let .uri(u)?: uri = u.uri
            case let .smartPoster(p)?: uri = p.uri.uri
            default: continue
            }
            guard uri.hasPrefix(urlPrefix) else { continue }
            let id = uri.dropFirst(urlPrefix.count)
            guard isValid(id) else { return nil }
            return String(id)
        }
        return nil
    }

    /// Whether `id` may be an HA tag id nfctap writes or reports.
    package static func isValid(_ id: Substring) -> Bool {
        !id.isEmpty && id.utf8.count <= 128 && id.utf8.allSatisfy { byte in
            (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x5F
        }
    }

    /// The URL an HA tag with `id` holds.
    package static func url(for id: String) -> String { urlPrefix + id }
}
