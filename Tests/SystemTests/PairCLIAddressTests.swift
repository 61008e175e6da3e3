import Foundation
import Testing

extension BlueZSystemTests.PairCLITests {
    @Test("a tag whose Bluetooth MAC is broadcast or multicast: refused with the reason, exit 1, no discovery started",
          arguments: [("mB=ffffffffffff", "the broadcast address"), ("mBL=01005e000001", "a multicast (group) address")])
    func groupMACNeverDiscovered(field: String, reason: String) throws {
        let mock = try BlueZMock()
        try mock.addAdapter()
        let tag = try TagOnPCSCD(try TagOnPCSCD.uriTag("http://www.zebra.com/apps/r/nfc?\(field)&c=ZQ320-A0E02T0-00&s=XXZFJ170700336&v=0"))
        let r = try pair(["--handler", "bluez", "--timeout", "20"], bus: mock)
        withExtendedLifetime(tag) {}
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("is not a printer address: it is \(reason)"))
        #expect(try mock.calls("/org/bluez/hci0", "StartDiscovery").isEmpty)
    }
}
