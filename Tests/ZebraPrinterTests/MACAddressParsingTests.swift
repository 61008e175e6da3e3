import Testing
@testable import ZebraPrinter

@Suite("MACAddress(string:)")
struct MACAddressParsingTests {
    @Test(arguments: ["cc78ab3ebae0", "CC78AB3EBAE0", "CC:78:AB:3E:BA:E0", "cc-78-ab-3e-ba-e0"])
    func accepted(_ text: String) {
        #expect(MACAddress(string: text)?.bytes == [0xCC, 0x78, 0xAB, 0x3E, 0xBA, 0xE0])
    }

    @Test(arguments: ["", "cc78ab3ebae", "cc78ab3ebae00", "cc78ab3ebag0", "cc78ab 3ebae0", "CC:78:AB:3E:BA:E",
                      "CC:78:AB:3E:BA:E0:", "CC.78.AB.3E.BA.E0", "CC:78-AB:3E:BA:E0", "C:C78:AB3:EBA:E0",
                      "CC 78 AB 3E BA E0", "+c78ab3ebae0", "cc78ab3ebae\u{0}", "cc78ab3ebaé"])
    func rejected(_ text: String) {
        #expect(MACAddress(string: text) == nil)
    }

    @Test func zeroIsZero() {
        #expect(MACAddress(string: "000000000000")?.isZero == true)
        #expect(MACAddress(string: "000000000001")?.isZero == false)
        #expect(MACAddress(string: "00074d6c9e65")?.description == "00:07:4D:6C:9E:65")
    }
}
