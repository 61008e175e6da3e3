/// The one writer of nfctap's machine output (docs/json-output.md): every JSON object a command
/// prints on stdout, or appends to a JSON Lines file, goes through here. Objects keep their keys
/// in the order they were built (`JSONValue.object`), after `"schemaVersion"`, which comes first.
package enum JSONDocument {
    /// The version of the output's shape: raised when a key changes meaning or goes away (new keys
    /// may appear without a change).
    package static let schemaVersion = 1

    /// `value` as one line of compact JSON: an object gets `"schemaVersion"` first, an array gets
    /// it in each of its objects.
    package static func line(_ value: JSONValue) -> String {
        versioned(value).jsonText
    }

    /// `value` with `"schemaVersion"` as the first key of it (or of each object of an array).
    package static func versioned(_ value: JSONValue) -> JSONValue {
        switch value {
        case let .object(fields):
            return .object([("schemaVersion", .int(schemaVersion))] + fields.filter { $0.0 != "schemaVersion" })
        case let .array(items):
            return .array(items.map { item in
                if case .object = item { return versioned(item) }
                return item
            })
        default:
            return value
        }
    }
}
