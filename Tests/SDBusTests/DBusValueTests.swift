import Testing
@testable import SDBus

@Suite struct DBusValueTests {
    @Test(arguments: [
        (DBusValue.byte(1), "y"), (.bool(true), "b"), (.int16(-1), "n"), (.uint16(1), "q"), (.int32(1), "i"),
        (.uint32(1), "u"), (.int64(1), "x"), (.uint64(1), "t"), (.double(1), "d"), (.string("s"), "s"),
        (.objectPath("/"), "o"), (.signature("s"), "g"), (.variant(.string("x")), "v"),
        (.bytes([]), "ay"), (.strings(["a"]), "as"),
        (.properties(["type": .string("request")]), "a{sv}"),
        (.structure([.string("a"), .uint32(1), .bytes([1])]), "(suay)"),
        (.array(elementType: "a{sv}", []), "aa{sv}"),
        (.dict(keyType: "o", valueType: "a{sa{sv}}", []), "a{oa{sa{sv}}}"),
    ])
    func signature(value: DBusValue, expected: String) {
        #expect(value.signature == expected)
    }

    @Test func propertiesAreSortedAndWrappedInVariants() {
        #expect(DBusValue.properties(["b": .bool(true), "a": .uint16(23)]) ==
                .dict(keyType: "s", valueType: "v", [
                    DBusDictEntry(key: .string("a"), value: .variant(.uint16(23))),
                    DBusDictEntry(key: .string("b"), value: .variant(.bool(true))),
                ]))
    }

    @Test func accessorsLookThroughVariants() {
        #expect(DBusValue.variant(.variant(.string("x"))).string == "x")
        #expect(DBusValue.variant(.objectPath("/org/bluez")).string == "/org/bluez")
        #expect(DBusValue.variant(.bool(true)).bool == true)
        #expect(DBusValue.string("true").bool == nil)
        #expect(DBusValue.variant(.uint16(515)).integer == 515)
        #expect(DBusValue.uint64(.max).integer == nil)
        #expect(DBusValue.variant(.bytes([1, 2, 3])).byteArray == [1, 2, 3])
        #expect(DBusValue.array(elementType: "y", [.byte(1), .string("x")]).byteArray == nil)
        #expect(DBusValue.strings(["a"]).byteArray == nil)
    }

    @Test func stringKeyedUnwrapsValuesAndRejectsOtherKeys() {
        let props = DBusValue.properties(["Powered": .bool(false), "Address": .string("00:01:02:03:04:05")])
        #expect(props.stringKeyed == ["Powered": .bool(false), "Address": .string("00:01:02:03:04:05")])
        #expect(DBusValue.dict(keyType: "y", valueType: "v", [DBusDictEntry(key: .byte(1), value: .variant(.byte(2)))]).stringKeyed == nil)
        #expect(DBusValue.string("x").stringKeyed == nil)
    }

    /// `GetManagedObjects` as BlueZ sends it, built by hand.
    static let managed: DBusValue = .dict(keyType: "o", valueType: "a{sa{sv}}", [
        entry("/org/bluez/hci1", [("org.bluez.Adapter1", ["Powered": .bool(true)])]),
        entry("/org/bluez/hci0", [("org.bluez.Adapter1", ["Powered": .bool(false)])]),
        entry("/org/bluez/hci0/dev_CC_78_AB_3E_BA_E0", [
            ("org.bluez.Device1", ["Address": .string("CC:78:AB:3E:BA:E0"), "Adapter": .objectPath("/org/bluez/hci0")]),
            ("org.freedesktop.DBus.Properties", [:]),
        ]),
    ])

    static func entry(_ path: String, _ interfaces: [(String, [String: DBusValue])]) -> DBusDictEntry {
        DBusDictEntry(key: .objectPath(path), value: .dict(keyType: "s", valueType: "a{sv}", interfaces.map {
            DBusDictEntry(key: .string($0.0), value: .properties($0.1))
        }))
    }

    @Test func managedObjectsParse() throws {
        let objects = try #require(ManagedObjects(Self.managed))
        #expect(objects.paths(implementing: "org.bluez.Adapter1") == ["/org/bluez/hci0", "/org/bluez/hci1"])
        #expect(objects.properties("/org/bluez/hci0/dev_CC_78_AB_3E_BA_E0", "org.bluez.Device1")?["Address"] == .string("CC:78:AB:3E:BA:E0"))
        #expect(objects.properties("/org/bluez/hci0", "org.bluez.Device1") == nil)
    }

    @Test func managedObjectsRejectOtherShapes() {
        #expect(ManagedObjects(.string("x")) == nil)
        #expect(ManagedObjects(.dict(keyType: "o", valueType: "s", [DBusDictEntry(key: .objectPath("/a"), value: .string("x"))])) == nil)
    }

    @Test func errnoErrorsKeepTheirCode() {
        let e = DBusError(code: -2, during: "connecting")
        #expect(e.name == "System.Error.ENOENT")
        #expect(e.errno == 2)
        #expect(e.message == "connecting: No such file or directory")
        #expect(DBusError(code: -110, during: "x").isTimeout)
        #expect(DBusError(name: "org.freedesktop.DBus.Error.NoReply", message: "").isTimeout)
        #expect(!DBusError(name: "org.bluez.Error.Failed", message: "").isTimeout)
    }

    @Test func connectingToNothingIsATypedError() {
        #expect(throws: DBusError.self) {
            try DBusConnection(address: "unix:path=/nonexistent/nfctap-no-bus")
        }
    }
}
