import Testing
@testable import ZebraPrinter

/// MACs that no printer can have: broadcast and multicast are refused with the reason; all
/// zeros means "absent" (docs/zebra.md §1), so a tag with only that has no Bluetooth address.
@Suite("Zebra tag MACs: broadcast and multicast are not printer addresses")
struct ZebraTagAddressTests {
    static let base = "http://www.zebra.com/apps/r/nfc?s=XXZFJ170700336&"

    @Test(arguments: [
        ("mB=ffffffffffff", ZebraTagError.notADeviceAddress(key: "mB", value: "ffffffffffff", reason: .broadcast)),
        ("mBL=FF:FF:FF:FF:FF:FF", .notADeviceAddress(key: "mBL", value: "FF:FF:FF:FF:FF:FF", reason: .broadcast)),
        ("mB=01005e000001", .notADeviceAddress(key: "mB", value: "01005e000001", reason: .multicast)),
        ("mBL=33-33-00-00-00-01", .notADeviceAddress(key: "mBL", value: "33-33-00-00-00-01", reason: .multicast)),
        ("mB=cd78ab3ebae0", .notADeviceAddress(key: "mB", value: "cd78ab3ebae0", reason: .multicast)),
        ("mW=ffffffffffff", .notADeviceAddress(key: "mW", value: "ffffffffffff", reason: .broadcast)),
    ])
    func refused(field: String, error: ZebraTagError) {
        #expect(throws: error) { try ZebraTag.identity(fromURI: Self.base + field) }
    }

    @Test func reasonIsSaid() {
        let broadcast = ZebraTagError.notADeviceAddress(key: "mB", value: "ffffffffffff", reason: .broadcast).description
        #expect(broadcast == "mB=\"ffffffffffff\" is not a printer address: it is the broadcast address")
        let multicast = ZebraTagError.notADeviceAddress(key: "mB", value: "01005e000001", reason: .multicast).description
        #expect(multicast.contains("multicast"))
    }

    @Test func unicastAndZeroStillAccepted() throws {
        let identity = try ZebraTag.identity(fromURI: Self.base + "mB=cc78ab3ebae0&mBL=000000000000")
        #expect(identity.bluetooth?.description == "CC:78:AB:3E:BA:E0")
        #expect(identity.bluetoothLE == nil)
        #expect(MACAddress(string: "ffffffffffff")?.isBroadcast == true)
        #expect(MACAddress(string: "020000000000")?.isMulticast == false)  // locally administered, unicast
    }
}
