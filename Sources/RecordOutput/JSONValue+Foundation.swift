import Foundation

extension JSONValue {
    /// Parses JSON text with Foundation's `JSONSerialization` (top-level scalars allowed).
    /// Object keys come back sorted (Foundation does not keep their order); numbers keep their
    /// integer or floating-point nature. Returns nil when `bytes` is not valid JSON.
    package init?(parsing bytes: [UInt8]) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]),
              let value = JSONValue(foundation: object) else { return nil }
        self = value
    }

    private init?(foundation object: Any) {
        switch object {
        case is NSNull:
            self = .null
        case let s as String:
            self = .string(s)
        case let n as NSNumber:
            // JSONSerialization gives booleans the objCType "c"; integers "i"/"q"/"Q"; reals "d".
            switch String(cString: n.objCType) {
            case "c": self = .bool(n.boolValue)
            case "d", "f": self = .double(n.doubleValue)
            case "Q": self = n.uint64Value <= UInt64(Int.max) ? .int(Int(n.uint64Value)) : .number(String(n.uint64Value))
            default: self = .int(Int(n.int64Value))
            }
        case let array as [Any]:
            var items: [JSONValue] = []
            for item in array {
                guard let v = JSONValue(foundation: item) else { return nil }
                items.append(v)
            }
            self = .array(items)
        case let dict as [String: Any]:
            var fields: [(String, JSONValue)] = []
            for (key, item) in dict.sorted(by: { $0.key < $1.key }) {
                guard let v = JSONValue(foundation: item) else { return nil }
                fields.append((key, v))
            }
            self = .object(fields)
        default:
            return nil
        }
    }
}
