import NFCTags
import ReaderCore
import RecordOutput

/// A FeliCa card's Polling answer in tag reports (docs/tags-and-readers.md §9.4): `pmm` and
/// `systemCode` as upper-case hex (the IDm is the report's `uid`).
package enum FeliCaJSON {
    package static func fields(_ tag: DetectedTag) -> [(String, JSONValue)] {
        guard let feliCa = tag.feliCa else { return [] }
        return [("pmm", .string(feliCa.pmm.hexString)), ("systemCode", .string(feliCa.systemCode.hexString))]
    }

    /// The chip named by PMm, for reports made without tag details.
    package static func product(_ tag: DetectedTag) -> String? { tag.feliCa?.product.description }
}
