import Glibc
import SDBus
import Testing

/// The codec and the reply mapping through real sd-bus messages, without a bus daemon
/// (`DBusOfflineMessages`): what BlueZ and the notification server send reads back as sent.
@Suite struct DBusMessageTests {
    static let samples: [DBusValue] = [
        .byte(0xFF), .bool(true), .bool(false), .int16(-2), .uint16(65535), .int32(-1), .uint32(4_000_000_000),
        .int64(Int64.min), .uint64(UInt64.max), .double(-0.5), .string("zebra ✓"), .objectPath("/org/bluez/hci0"),
        .signature("a{sv}"), .variant(.uint16(23)), .variant(.variant(.string("nested"))),
        .bytes([]), .bytes([0, 1, 0xFE]), .strings(["default", "Open"]),
        .properties(["category": .string("device"), "urgency": .byte(1)]),
        .structure([.string("a"), .uint32(1), .bytes([1])]),
        .array(elementType: "a{sv}", [.properties([:]), .properties(["x": .bool(true)])]),
        .dict(keyType: "o", valueType: "a{sa{sv}}", [
            DBusDictEntry(key: .objectPath("/org/bluez/hci0"),
                          value: .dict(keyType: "s", valueType: "a{sv}", [
                            DBusDictEntry(key: .string("org.bluez.Adapter1"), value: .properties(["Powered": .bool(true)])),
                          ])),
        ]),
    ]

    @Test("each value reads back equal, under the signature it claims", arguments: samples)
    func roundTrip(value: DBusValue) throws {
        let messages = try DBusOfflineMessages()
        let (signature, back) = try messages.roundTrip([value])
        #expect(signature == value.signature)
        #expect(back == [value])
    }

    @Test func aWholeNotifyCallReadsBackInOrder() throws {
        let args: [DBusValue] = [.string("nfctap"), .uint32(0), .string(""), .string("Tag"), .string("<b>x</b>"),
                                 .strings(["default", "Open"]), .properties(["urgency": .byte(1)]), .int32(-1)]
        let (signature, back) = try DBusOfflineMessages().roundTrip(args)
        #expect(signature == "susssasa{sv}i")
        #expect(back == args)
    }

    @Test func anArrayElementOfAnotherTypeIsRefused() throws {
        let wrong = DBusValue.array(elementType: "s", [.uint32(1)])
        #expect(throws: DBusError.self) { try DBusOfflineMessages().roundTrip([wrong]) }
    }

    @Test func aNulInAStringIsRefusedBeforeSdBusSeesIt() throws {
        #expect(throws: DBusError(name: "org.freedesktop.DBus.Error.InvalidArgs",
                                  message: "a D-Bus string cannot contain a NUL byte")) {
            try DBusOfflineMessages().roundTrip([.string("a\0b")])
        }
    }

    @Test("an error reply keeps the peer's name and text",
          arguments: ["org.bluez.Error.AuthenticationFailed", "org.freedesktop.DBus.Error.ServiceUnknown",
                      "org.freedesktop.DBus.Error.NoReply"])
    func errorReply(name: String) throws {
        let result = try DBusOfflineMessages().result(ofErrorReply: name, message: "refused by peer")
        #expect(throws: DBusError(name: name, message: "refused by peer")) { try result.get() }
        let e = try #require(throws: DBusError.self) { try result.get() }
        #expect(e.errno == nil)
        #expect(e.isTimeout == (name == DBusError.noReplyName))
    }

    @Test func aReturnGivesItsArguments() throws {
        let values: [DBusValue] = [.uint32(42), .properties(["Address": .string("CC:78:AB:3E:BA:E0")])]
        #expect(try DBusOfflineMessages().result(ofReturn: values).get() == values)
        #expect(try DBusOfflineMessages().result(ofReturn: []).get() == [])
    }

    @Test func localFailuresNameTheirErrno() {
        let e = DBusError(code: -ECONNREFUSED, during: "connecting to unix:path=/x")
        #expect(e.name == "System.Error.ECONNREFUSED")
        #expect(e.errno == ECONNREFUSED)
        #expect(e.message.hasPrefix("connecting to unix:path=/x: "))
        #expect(DBusError(code: -200, during: "x").name == "System.Error.E200")
    }

    @Test func aMalformedAddressIsATypedError() {
        let e = #expect(throws: DBusError.self) { try DBusConnection(address: "nonsense-without-colon") }
        #expect(e?.errno != nil)
        #expect(e?.name.hasPrefix("System.Error.") == true)
    }
}

@Suite struct SessionBusAddressTests {
    @Test func theVariableWinsThenTheRuntimeDirectory() throws {
        #expect(try DBusConnection.sessionAddress(environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/a",
                                                                "XDG_RUNTIME_DIR": "/run/user/1000"]) == "unix:path=/a")
        #expect(try DBusConnection.sessionAddress(environment: ["DBUS_SESSION_BUS_ADDRESS": "",
                                                                "XDG_RUNTIME_DIR": "/run/user/1000"])
                == "unix:path=/run/user/1000/bus")
    }

    @Test func neitherIsATypedError() {
        #expect(throws: DBusError(name: "org.freedesktop.DBus.Error.FileNotFound",
                                  message: "no session bus: DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are not set")) {
            try DBusConnection.session(environment: ["HOME": "/root"])
        }
    }
}
