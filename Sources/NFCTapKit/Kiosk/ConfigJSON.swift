import Foundation

/// A JSON document as a tree, for validating a configuration key by key with precise messages
/// (JSONDecoder with synthesized Codable ignores unknown keys and names types, not settings).
package enum ConfigJSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([ConfigJSON])
    case object([String: ConfigJSON])

    package init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([ConfigJSON].self) { self = .array(a) }
        else { self = .object(try c.decode([String: ConfigJSON].self)) }
    }

    /// What a value is, for "expected …, got …" messages.
    package var kind: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
