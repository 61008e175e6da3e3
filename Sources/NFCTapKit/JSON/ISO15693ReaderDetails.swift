import NFCTags
import ReaderCore
import RecordOutput

/// The `"iso15693"` object of `readers --json` for an ISO 15693 (Type 5) tag: what the UID and
/// one Get System Information say (docs/tags-and-readers.md §7.4, §7.5, docs/json-output.md).
/// A field the tag did not report is left out, never guessed.
package enum ISO15693ReaderDetails {
    /// Get System Information (`2B`) through `backend`'s connection to `tag`: one connection (the
    /// one that read the UID, when the backend kept it), closed again. nil when the tag is not an
    /// ISO 15693 tag with a known UID, the reader cannot pass the command (READ BINARY fallback),
    /// or the tag refused or left.
    package static func systemInfo(backend: any ReaderBackend, tag: DetectedTag) -> ISO15693SystemInfo? {
        guard tag.technology == .type5, tag.uid.count == 8 else { return nil }
        guard let connection = try? backend.connect(to: tag, exclusive: false) else { return nil }
        defer { connection.disconnect() }
        guard let link = connection.iso15693, link.passesAnyCommand else { return nil }
        guard let data = try? Type5Tag(link: link).command(.getSystemInfo) else { return nil }
        return try? ISO15693SystemInfo(responseData: data)
    }

    /// `manufacturerCode` and `manufacturer` (the UID's byte 1, ISO/IEC 7816-6), `product` (the
    /// chip, when the UID and IC reference name it), then `blockSize`, `blockCount`,
    /// `icReference`, `dsfid`, `afi` as Get System Info reported them. nil for a UID that is not
    /// an ISO 15693 one (`E0 …`, 8 bytes).
    package static func json(uid: [UInt8], systemInfo info: ISO15693SystemInfo?) -> JSONValue? {
        guard uid.count == 8, uid[0] == 0xE0 else { return nil }
        var fields: [(String, JSONValue)] = [("manufacturerCode", .int(Int(uid[1])))]
        if let name = ISO15693Manufacturer.name(uid[1]) { fields.append(("manufacturer", .string(name))) }
        // ST chips are told by their IC reference only: without Get System Info, no product.
        let product = Type5Product(uid: uid, icReference: info?.icReference)
        if product.isIdentified, uid[1] != ISO15693Manufacturer.st || info?.icReference != nil {
            fields.append(("product", .string(product.description)))
        }
        let numbers: [(String, Int?)] = [
            ("blockSize", info?.blockSize), ("blockCount", info?.blockCount), ("icReference", info?.icReference.map(Int.init)),
            ("dsfid", info?.dsfid.map(Int.init)), ("afi", info?.afi.map(Int.init)),
        ]
        fields += numbers.compactMap { key, value in value.map { (key, JSONValue.int($0)) } }
        return .object(fields)
    }
}
