import Testing
import NDEF
import NFCTags
import TagEmulation

/// Inputs the `type2` fuzz target found (Fuzz/README.md), replayed on the project's own virtual tag.
@Suite("Type 2 fuzz regressions")
struct Type2FuzzRegressionTests {
    /// Fuzz/findings/type2-read-wraps-past-memory: a MIFARE Ultralight (16 pages, no GET_VERSION)
    /// whose CC claims a 144-byte data area (`E1 10 12 00`, as on an NTAG213) and whose NDEF TLV
    /// `03 30` runs past page 15. READ rolls over to page 0 at the end of memory, so the last
    /// 8 "message" bytes are the UID and serial bytes of pages 0-1: wrong data presented as right.
    /// The read must fail instead (a READ of the last page the message needs answers NAK).
    /// Reported to the Type 2 owner; `withKnownIssue` turns into a failure once it is fixed,
    /// as a reminder to drop the wrapper.
    @Test func readDoesNotRollOverIntoTheUID() throws {
        let image = T2.hex("""
            04 5A 2C 91 6E 3F 80 00 48 00 00 00 E1 10 12 00 01 03 A0 0C 34 03 30 26 6D 57 63 3F 6D 45 3D 63
            2F 72 2F 6E 66 45 3D 62 30 70 74 69 6F 6E 61 6C 3F 6D 45 3D 62 30 63 3F 6D 45 3D 62 30 00 00 00
            """)
        let chip = try VirtualType2Tag(product: .ultralight, memory: image)
        let tag = Type2Tag(link: NativeType2Link(tag: chip, raw: true))
        withKnownIssue("Type2Tag reads past the end of memory through READ roll-over") {
            let message = try tag.readNDEF()
            Issue.record("read \(message.count) bytes, ending \(message.suffix(8).hexString(separator: " ")) (the UID)")
        }
    }
}
