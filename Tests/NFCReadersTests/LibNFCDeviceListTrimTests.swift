import Testing
@testable import NFCReaders

/// libnfc.conf and `LIBNFC_DEVICE` are trimmed with the standard library now (docs/architecture.md
/// "Start-up"): the same values as with Foundation's `trimmingCharacters(in: .whitespaces)`.
@Suite struct LibNFCDeviceListTrimTests {
    @Test func spacesAndTabsAroundKeysAndValues() {
        #expect(LibNFCDeviceList.connstring(inConfig: " \t device.connstring \t=\t \"pn532_uart:/dev/ttyS0\" \t\n") == "pn532_uart:/dev/ttyS0")
        #expect(LibNFCDeviceList.connstring(inConfig: "device.connstring=  \n") == nil)
        #expect(LibNFCDeviceList.configured(explicit: nil, environment: ["LIBNFC_DEVICE": " \tpn533_usb \t"], configText: nil) == ["pn533_usb"])
        #expect(LibNFCDeviceList.configured(explicit: nil, environment: ["LIBNFC_DEVICE": "  ", "LIBNFC_DEFAULT_DEVICE": "acr122_usb"], configText: nil) == ["acr122_usb"])
    }

    @Test func innerSpaceKept() {
        #expect(LibNFCDeviceList.trimmed("  a b  ") == "a b")
        #expect(LibNFCDeviceList.trimmed("\u{00A0}x\u{3000}") == "x")  // no-break and ideographic spaces, as `.whitespaces`
        #expect(LibNFCDeviceList.trimmed("") == "")
    }

    @Test func environmentHoldsOnlyTheDeviceVariables() {
        #expect(Set(LibNFCBackend.deviceEnvironment().keys).isSubset(of: ["LIBNFC_DEVICE", "LIBNFC_DEFAULT_DEVICE"]))
    }
}
