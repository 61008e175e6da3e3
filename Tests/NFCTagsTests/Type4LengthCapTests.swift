import NDEF
@testable import NFCTags
import TagEmulation
import Testing

/// A Type 4 tag claiming a message larger than the decoder accepts (1 MiB) is refused from its
/// NLEN/ENLEN, before any of the message is read (docs/tags-and-readers.md §2).
@Suite("Type 4: NDEF length cap before reading")
struct Type4LengthCapTests {
    @Test("a mapping 3.0 tag whose ENLEN claims 2 MB is refused after reading ENLEN, in a handful of exchanges")
    func twoMegabyteClaimRefused() throws {
        let tag = VirtualType4Tag.largeMessage(version: .v3, size: 2 * 1024 * 1024)
        let plan = FaultPlan()
        let t4 = Type4Tag(transceiver: VirtualTagTransceiver(tag: tag, plan: plan))
        #expect(throws: TagError.self) { try t4.readNDEF() }
        do {
            _ = try t4.readNDEF()
        } catch {
            guard case let .invalidTagData(why) = error else { throw error }
            #expect(why.contains("ENLEN claims a 2097152-byte NDEF message"))
            #expect(why.contains("1048576-byte limit"))
        }
        // SELECT app, SELECT CC, READ CC (2 for v3.0), SELECT NDEF, first READ: twice.
        #expect(plan.exchangeCount <= 2 * 6)
    }

    @Test("a message exactly at the limit is still read")
    func atTheLimit() throws {
        let size = 4096
        let tag = VirtualType4Tag.largeMessage(version: .v3, size: size)
        let t4 = Type4Tag(transceiver: VirtualTagTransceiver(tag: tag), maxMessageLength: size)
        #expect(try t4.readNDEF() == VirtualType4Tag.sampleMessage(size: size))
        let tight = Type4Tag(transceiver: VirtualTagTransceiver(tag: tag), maxMessageLength: size - 1)
        #expect(throws: TagError.self) { try tight.readNDEF() }
    }
}
