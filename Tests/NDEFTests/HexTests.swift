import Testing
import NDEF

@Suite struct HexTests {
    @Test func parsesWithSeparatorsAndPrefix() {
        #expect([UInt8](hex: "D1 01 0b") == [0xD1, 0x01, 0x0B])
        #expect([UInt8](hex: "cc:78:ab") == [0xCC, 0x78, 0xAB])
        #expect([UInt8](hex: "0xD101") == [0xD1, 0x01])
        #expect([UInt8](hex: "") == [])
    }
    @Test func rejectsOddDigitsAndJunk() {
        #expect([UInt8](hex: "D10") == nil)
        #expect([UInt8](hex: "D1 0 1") == nil)
        #expect([UInt8](hex: "G1") == nil)
        #expect([UInt8](hex: "1x00") == nil)
    }
    @Test func printsUpperCase() {
        #expect([UInt8]([0x0A, 0xFF]).hexString == "0AFF")
        #expect([UInt8]([0x0A, 0xFF]).hexString(separator: " ") == "0A FF")
    }
}
