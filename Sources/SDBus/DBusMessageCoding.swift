import CSDBus
import Glibc

// Marshalling DBusValue into and out of sd-bus messages. The varargs functions
// (sd_bus_message_append / _read) cannot be called from Swift, so everything goes through
// append_basic / open_container / close_container and read_basic / enter_container / peek_type.
// Only the SDBus module calls sd-bus (DBusConnection, this file, DBusOfflineMessages).

private func typeCode(_ c: Unicode.Scalar) -> CChar { CChar(UInt8(ascii: c)) }

enum DBusMessageCoding {
    /// Appends each value to the message in order.
    /// - Throws: `DBusError` with the errno sd-bus returned (e.g. an array element of the wrong type).
    static func append(_ values: [DBusValue], to m: OpaquePointer) throws {
        for v in values { try append(v, to: m) }
    }

    static func append(_ value: DBusValue, to m: OpaquePointer) throws {
        func check(_ r: Int32) throws {
            if r < 0 { throw DBusError(code: r, during: "marshalling \(value.signature)") }
        }
        func basic<T>(_ code: Unicode.Scalar, _ v: T) throws {
            var copy = v
            try check(withUnsafePointer(to: &copy) { sd_bus_message_append_basic(m, typeCode(code), $0) })
        }
        func text(_ code: Unicode.Scalar, _ s: String) throws {
            guard !s.utf8.contains(0) else {
                throw DBusError(name: "org.freedesktop.DBus.Error.InvalidArgs",
                                message: "a D-Bus string cannot contain a NUL byte")
            }
            try check(s.withCString { sd_bus_message_append_basic(m, typeCode(code), $0) })
        }
        func container(_ code: Unicode.Scalar, _ contents: String, _ body: () throws -> Void) throws {
            try check(sd_bus_message_open_container(m, typeCode(code), contents))
            try body()
            try check(sd_bus_message_close_container(m))
        }
        switch value {
        case .byte(let v): try basic("y", v)
        case .bool(let v): try basic("b", Int32(v ? 1 : 0))   // sd-bus takes an int for 'b'
        case .int16(let v): try basic("n", v)
        case .uint16(let v): try basic("q", v)
        case .int32(let v): try basic("i", v)
        case .uint32(let v): try basic("u", v)
        case .int64(let v): try basic("x", v)
        case .uint64(let v): try basic("t", v)
        case .double(let v): try basic("d", v)
        case .string(let s): try text("s", s)
        case .objectPath(let s): try text("o", s)
        case .signature(let s): try text("g", s)
        case .array(let elementType, let items):
            try container("a", elementType) { for item in items { try append(item, to: m) } }
        case .dict(let k, let v, let entries):
            try container("a", "{" + k + v + "}") {
                for e in entries {
                    try container("e", k + v) {
                        try append(e.key, to: m)
                        try append(e.value, to: m)
                    }
                }
            }
        case .variant(let inner):
            try container("v", inner.signature) { try append(inner, to: m) }
        case .structure(let items):
            try container("r", items.map(\.signature).joined()) { for item in items { try append(item, to: m) } }
        }
    }

    /// Reads every remaining value at the current level of the message.
    /// - Throws: `DBusError` when sd-bus cannot read the message or it holds an unsupported type (`h`).
    static func readAll(from m: OpaquePointer) throws -> [DBusValue] {
        var out: [DBusValue] = []
        while let v = try readNext(from: m) { out.append(v) }
        return out
    }

    /// Reads the next value, nil at the end of the current container.
    static func readNext(from m: OpaquePointer) throws -> DBusValue? {
        var type: CChar = 0
        var contentsPtr: UnsafePointer<CChar>? = nil
        let r = sd_bus_message_peek_type(m, &type, &contentsPtr)
        if r < 0 { throw DBusError(code: r, during: "reading a message") }
        if r == 0 { return nil }
        let contents = contentsPtr.map { String(cString: $0) } ?? ""

        func check(_ r: Int32, _ what: String) throws {
            if r < 0 { throw DBusError(code: r, during: "reading \(what)") }
        }
        func basic<T>(_ zero: T) throws -> T {
            var v = zero
            try check(withUnsafeMutablePointer(to: &v) { sd_bus_message_read_basic(m, type, $0) }, "a basic value")
            return v
        }
        func text() throws -> String {
            var p: UnsafePointer<CChar>? = nil
            try check(sd_bus_message_read_basic(m, type, &p), "a string")
            return p.map { String(cString: $0) } ?? ""
        }
        func inside<T>(_ code: Unicode.Scalar, _ body: () throws -> T) throws -> T {
            try check(sd_bus_message_enter_container(m, typeCode(code), contents), "a container")
            let v = try body()
            try check(sd_bus_message_exit_container(m), "a container")
            return v
        }

        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "y"): return .byte(try basic(UInt8(0)))
        case UInt8(ascii: "b"): return .bool(try basic(Int32(0)) != 0)
        case UInt8(ascii: "n"): return .int16(try basic(Int16(0)))
        case UInt8(ascii: "q"): return .uint16(try basic(UInt16(0)))
        case UInt8(ascii: "i"): return .int32(try basic(Int32(0)))
        case UInt8(ascii: "u"): return .uint32(try basic(UInt32(0)))
        case UInt8(ascii: "x"): return .int64(try basic(Int64(0)))
        case UInt8(ascii: "t"): return .uint64(try basic(UInt64(0)))
        case UInt8(ascii: "d"): return .double(try basic(Double(0)))
        case UInt8(ascii: "s"): return .string(try text())
        case UInt8(ascii: "o"): return .objectPath(try text())
        case UInt8(ascii: "g"): return .signature(try text())
        case UInt8(ascii: "v"): return .variant(try inside("v") {
            guard let inner = try readNext(from: m) else {
                throw DBusError(name: "org.freedesktop.DBus.Error.InvalidSignature", message: "empty variant")
            }
            return inner
        })
        case UInt8(ascii: "r"): return .structure(try inside("r") { try readAll(from: m) })
        case UInt8(ascii: "a"):
            if contents == "y" {
                var ptr: UnsafeRawPointer? = nil
                var size = 0
                try check(sd_bus_message_read_array(m, typeCode("y"), &ptr, &size), "a byte array")
                let bytes = ptr.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
                return .bytes(bytes)
            }
            if contents.hasPrefix("{"), contents.count >= 4 {
                let inner = String(contents.dropFirst().dropLast())       // "{sv}" -> "sv"
                let keyType = String(inner.prefix(1))                      // dict keys are basic types
                let valueType = String(inner.dropFirst())
                let entries: [DBusDictEntry] = try inside("a") {
                    var entries: [DBusDictEntry] = []
                    while true {
                        var t: CChar = 0
                        var c: UnsafePointer<CChar>? = nil
                        let p = sd_bus_message_peek_type(m, &t, &c)
                        try check(p, "a dictionary")
                        if p == 0 { break }
                        try check(sd_bus_message_enter_container(m, typeCode("e"), inner), "a dictionary entry")
                        guard let k = try readNext(from: m), let v = try readNext(from: m) else {
                            throw DBusError(name: "org.freedesktop.DBus.Error.InvalidSignature",
                                            message: "truncated dictionary entry")
                        }
                        try check(sd_bus_message_exit_container(m), "a dictionary entry")
                        entries.append(DBusDictEntry(key: k, value: v))
                    }
                    return entries
                }
                return .dict(keyType: keyType, valueType: valueType, entries)
            }
            return .array(elementType: contents, try inside("a") { try readAll(from: m) })
        default:
            throw DBusError(name: "org.freedesktop.DBus.Error.NotSupported",
                            message: "D-Bus type '\(Character(Unicode.Scalar(UInt8(bitPattern: type))))' is not supported")
        }
    }
}
