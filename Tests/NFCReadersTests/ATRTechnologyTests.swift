@testable import NFCReaders
import NDEF
import Testing

/// Issue 23 item 5 and issue 28: the ATR's standard byte decides the technology, so low-frequency,
/// ISO 15693 and FeliCa cards are never read as Type 2 (docs/tags-and-readers.md §7.9).
@Suite struct ATRTechnologyTests {
    static func classify(_ text: String) -> ATRClassification {
        ATRClassification.classify([UInt8](hex: text) ?? [])
    }

    @Test func anElatecTWN4HitagCardIsLowFrequencyNotType2() {
        #expect(Self.classify("3B 8F 80 01 80 4F 0C A0 00 00 03 06 40 00 00 00 00 00 00 28").technology == .lowFrequency)
    }

    @Test func iso15693Part3TagsAreType5() {
        // pcsc-tools' ICODE and Tag-it ATRs.
        #expect(Self.classify("3B 8F 80 01 80 4F 0C A0 00 00 03 06 0B 00 14 00 00 00 00 77").technology == .type5)
        #expect(Self.classify("3B 8F 80 01 80 4F 0C A0 00 00 03 06 0B 00 12 00 00 00 00 71").technology == .type5)
    }

    @Test func iclassAndFeliCaAreNamedOrOther() {
        #expect(Self.classify("3B 8F 80 01 80 4F 0C A0 00 00 03 06 0A 00 1A 00 00 00 00 78").technology == .other)
        #expect(Self.classify("3B 8F 80 01 80 4F 0C A0 00 00 03 06 11 00 3B 00 00 00 00 42").technology == .feliCa)
        // NTAG / Ultralight stays Type 2.
        #expect(Self.classify("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68").technology == .type2)
    }
}
