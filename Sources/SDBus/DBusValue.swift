// D-Bus values for marshalling (D-Bus specification, "Type System").

/// One D-Bus value with its type. Containers carry their element types so an empty array or
/// dictionary still has a signature.
package indirect enum DBusValue: Hashable, Sendable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// `a<elementType>`; every element must have that signature.
    case array(elementType: String, [DBusValue])
    /// `a{<keyType><valueType>}`, entries in order.
    case dict(keyType: String, valueType: String, [DBusDictEntry])
    case variant(DBusValue)
    /// `(…)`.
    case structure([DBusValue])

    /// The value's D-Bus type signature, e.g. `a{sv}`.
    package var signature: String {
        switch self {
        case .byte: return "y"
        case .bool: return "b"
        case .int16: return "n"
        case .uint16: return "q"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .array(let t, _): return "a" + t
        case .dict(let k, let v, _): return "a{" + k + v + "}"
        case .variant: return "v"
        case .structure(let items): return "(" + items.map(\.signature).joined() + ")"
        }
    }
}

/// One entry of a D-Bus dictionary.
package struct DBusDictEntry: Hashable, Sendable {
    package var key: DBusValue
    package var value: DBusValue
    package init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}

// MARK: - Building

extension DBusValue {
    /// `ay` from bytes.
    package static func bytes(_ bytes: [UInt8]) -> DBusValue {
        .array(elementType: "y", bytes.map { .byte($0) })
    }

    /// `as` from strings.
    package static func strings(_ strings: [String]) -> DBusValue {
        .array(elementType: "s", strings.map { .string($0) })
    }

    /// `a{sv}` (the usual options/properties dictionary), keys sorted so the bytes are stable.
    package static func properties(_ values: [String: DBusValue]) -> DBusValue {
        .dict(keyType: "s", valueType: "v", values.keys.sorted().map {
            DBusDictEntry(key: .string($0), value: .variant(values[$0]!))
        })
    }
}

// MARK: - Reading

extension DBusValue {
    /// The value with every variant wrapper removed.
    package var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    package var string: String? {
        switch unwrapped {
        case .string(let s), .objectPath(let s), .signature(let s): return s
        default: return nil
        }
    }

    package var bool: Bool? {
        if case .bool(let b) = unwrapped { return b }
        return nil
    }

    /// Any unsigned or non-negative integer that fits in `Int`.
    package var integer: Int? {
        switch unwrapped {
        case .byte(let v): return Int(v)
        case .uint16(let v): return Int(v)
        case .int16(let v): return Int(v)
        case .uint32(let v): return Int(v)
        case .int32(let v): return Int(v)
        case .int64(let v): return Int(v)
        case .uint64(let v): return v <= UInt64(Int.max) ? Int(v) : nil
        default: return nil
        }
    }

    /// `ay` as bytes; nil for anything else (including an array holding a non-byte).
    package var byteArray: [UInt8]? {
        guard case .array("y", let items) = unwrapped else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(items.count)
        for item in items {
            guard case .byte(let b) = item else { return nil }
            out.append(b)
        }
        return out
    }

    /// The elements of any array.
    package var elements: [DBusValue]? {
        if case .array(_, let items) = unwrapped { return items }
        return nil
    }

    /// A dictionary with string-like keys (`s` or `o`) as a Swift dictionary; variant values are
    /// unwrapped one level so `a{sv}` reads as name → value. Later duplicate keys win.
    package var stringKeyed: [String: DBusValue]? {
        guard case .dict(_, _, let entries) = unwrapped else { return nil }
        var out: [String: DBusValue] = [:]
        for e in entries {
            guard let k = e.key.string else { return nil }
            out[k] = e.value.unwrapped
        }
        return out
    }
}
