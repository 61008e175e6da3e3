import Foundation
import NFCReaders
@testable import NFCTags
import ReaderCore
import Synchronization
import TagEmulation
import Testing

/// Issue 23 item 5: first-tap mismatches from public reader traces, against the emulated reader
/// personalities, with the exact exchanges (docs/tags-and-readers.md §3).
@Suite struct FirstTapQuirksTests {
    static let uid: [UInt8] = [0x04, 0x7B, 0x21, 0x93, 0x5C, 0x40, 0x81]
    static let start: [UInt8] = [0xFF, 0xC2, 0x00, 0x00, 0x02, 0x81, 0x00]

    static func message(_ n: Int) -> [UInt8] { (0 ..< n).map { UInt8(truncatingIfNeeded: $0 * 5 + 3) } }

    /// The exchanges of reading `tag` through a reader nfctap knows no raw path for.
    static func pageReadLog(_ tag: () throws -> VirtualType2Tag) throws -> [[UInt8]] {
        let reader = EmulatedPCSCReader(profile: .generic, tag: try tag())
        _ = try Type2Tag(link: reader.type2Link()).readNDEF()
        return reader.plan.log
    }

    // MARK: FF C2 refused

    @Test(arguments: [[UInt8(0x63), 0x00], [0x6A, 0x81], [0x6D, 0x00], [0x69, 0x86]])
    func aRefusedTransparentStartFallsBackToPageReads(sw: [UInt8]) throws {
        let message = Self.message(60)
        let make = { try VirtualType2Tag(product: .ntag215, uid: Self.uid, ndef: message) }
        let reader = EmulatedPCSCReader(profile: .omnikey, tag: try make())
        reader.refusesTransparentExchange = true
        reader.transparentRefusal = sw
        let link = reader.type2Link()
        #expect(try Type2Tag(link: link).readNDEF() == message)
        // One refused start, then exactly the page reads of a reader without raw frames.
        #expect(reader.plan.log == [Self.start] + (try Self.pageReadLog(make)))
        #expect(link.rawPathRefused && !link.canSendRawCommands && link.fastReadLimit == 0)
    }

    /// A transceiver that fails the transmit of `FF C2` as a reader that chokes on it does.
    final class ChokesOnTransparent: Transceiver {
        let inner: EmulatedPCSCTransceiver
        var sent: [[UInt8]] = []
        init(_ reader: EmulatedPCSCReader) { inner = EmulatedPCSCTransceiver(reader: reader) }
        func transceive(_ command: [UInt8]) throws(TagError) -> [UInt8] {
            sent.append(command)
            if command.starts(with: [0xFF, 0xC2]) { throw TagError.transport(code: 0x8010_0016, message: "SCARD_E_NOT_TRANSACTED") }
            return try inner.transceive(command)
        }
    }

    @Test func aTransportErrorOnTheStartFallsBackToPageReads() throws {
        let message = Self.message(30)
        let make = { try VirtualType2Tag(product: .ntag213, uid: Self.uid, ndef: message) }
        let reader = EmulatedPCSCReader(profile: .identiv, tag: try make())
        let transceiver = ChokesOnTransparent(reader)
        let link = PseudoAPDUType2Link(transceiver: transceiver, profile: .identiv)
        #expect(try Type2Tag(link: link).readNDEF() == message)
        #expect(transceiver.sent.first == Self.start)
        #expect(transceiver.sent.dropFirst().allSatisfy { $0.starts(with: [0xFF, 0xB0]) })
        #expect(link.rawPathRefused)
    }

    @Test func noAnswerToTheStartIsNotARefusal() throws {
        // No answer at all is the tag's silence (as a mute tag's GET_VERSION): the tag is
        // re-presented and read, and the reader's raw path is not written off.
        let message = Self.message(12)
        let reader = EmulatedPCSCReader(profile: .omnikey, tag: try VirtualType2Tag(product: .ntag213, uid: Self.uid, ndef: message))
        reader.plan.faults = [0: .noReply]
        let link = reader.type2Link()
        #expect(try Type2Tag(link: link).readNDEF() == message)
        #expect(reader.plan.log.first == Self.start)
        #expect(!link.rawPathRefused && link.canSendRawCommands)
    }

    @Test func theRefusalIsRememberedForThatReaderOnly() throws {
        let registry = PCSCReaderRegistry()
        let name = "HID Global OMNIKEY 5022 Smart Card Reader 00 00"
        let other = "HID Global OMNIKEY 5022 Smart Card Reader 01 00"
        let first = registry.profile(readerName: name) { _ in nil }
        let reader = EmulatedPCSCReader(profile: .omnikey, tag: try VirtualType2Tag(product: .ntag213, uid: Self.uid, ndef: Self.message(8)))
        reader.refusesTransparentExchange = true
        reader.transparentRefusal = [0x63, 0x00]
        let link = PseudoAPDUType2Link(transceiver: EmulatedPCSCTransceiver(reader: reader), profile: first)
        _ = try Type2Tag(link: link).readNDEF()
        #expect(link.rawPathRefused)
        registry.noteRawCommandsRefused(readerName: name)   // what PCSCTagConnection does at disconnect
        // The next tap on that reader sends no FF C2; another reader of the same model still may.
        reader.plan.reset()
        let next = PseudoAPDUType2Link(transceiver: EmulatedPCSCTransceiver(reader: reader),
                                       profile: registry.profile(readerName: name) { _ in nil })
        #expect(try Type2Tag(link: next).readNDEF() == Self.message(8))
        #expect(!reader.plan.log.contains { $0.starts(with: [0xFF, 0xC2]) })
        #expect(registry.profile(readerName: other) { _ in nil }.rawCommandPath == .transparentExchange)
    }

    // MARK: Unknown readers: raw frames only when asked

    @Test func anUnknownReaderReadsWithoutTryingRawFrames() throws {
        let reader = EmulatedPCSCReader(profile: .omnikey, tag: try VirtualType2Tag(product: .ntag215, uid: Self.uid, ndef: Self.message(20)))
        let link = PseudoAPDUType2Link(transceiver: EmulatedPCSCTransceiver(reader: reader), profile: .generic)
        #expect(try Type2Tag(link: link).readNDEF() == Self.message(20))
        #expect(reader.plan.log.allSatisfy { $0.starts(with: [0xFF, 0xB0]) })
    }

    @Test func anUnknownReaderTriesTheTransparentExchangeWhenAsked() throws {
        let reader = EmulatedPCSCReader(profile: .springcard, tag: try VirtualType2Tag(product: .ntag215, uid: Self.uid))
        let link = PseudoAPDUType2Link(transceiver: EmulatedPCSCTransceiver(reader: reader), profile: .generic)
        #expect(!link.canSendRawCommands)
        link.offerRawCommands()
        #expect(link.canSendRawCommands && link.fastReadLimit == 240)
        #expect(try link.getVersion() == Type2Product.ntag215.versionBytes)
        #expect(reader.plan.log == [Self.start,
                                    [0xFF, 0xC2, 0x00, 0x01, 0x03, 0x95, 0x01, 0x60, 0x00],
                                    [0xFF, 0xC2, 0x00, 0x00, 0x02, 0x82, 0x00]])
        // A profile whose reader refused before is not offered again.
        var refused = PCSCReaderProfile.generic
        refused.rawCommandsRefused = true
        let later = PseudoAPDUType2Link(transceiver: EmulatedPCSCTransceiver(reader: reader), profile: refused)
        later.offerRawCommands()
        #expect(!later.canSendRawCommands)
    }

    // MARK: WRITE answered 63 00 that landed

    @Test func aWriteAnswered6300ThatLandedIsReadBackAndTheWriteGoesOn() throws {
        let old = Self.message(40), new = Self.message(70)
        let make = { try VirtualType2Tag(product: .ntag215, uid: Self.uid, ndef: old) }
        // What the write sends through an ACR122U that reports every landed WRITE truthfully.
        let honest = EmulatedPCSCReader(profile: .acr122u, tag: try make())
        try Type2Tag(link: honest.type2Link()).writeNDEF(new)
        let expected = honest.plan.log

        let tag = try make()
        let reader = EmulatedPCSCReader(profile: .acr122u, tag: tag)
        reader.misreportedWrites = 1  // the first WRITE (length byte 00) lands but is answered 63 00
        try Type2Tag(link: reader.type2Link()).writeNDEF(new)
        let firstWrite = try #require(expected.firstIndex { $0.starts(with: [0xFF, 0xD6]) })
        let page = expected[firstWrite][3]
        var withReadBack = expected
        withReadBack.insert([0xFF, 0xB0, 0x00, page, 0x10], at: firstWrite + 1)
        #expect(reader.plan.log == withReadBack)
        #expect(try Type2Tag(link: reader.type2Link()).readNDEF() == new)
    }

    @Test func aWriteAnswered6300ThatDidNotLandStillFailsAndLeavesTheOldMessage() throws {
        let old = Self.message(40)
        let tag = try VirtualType2Tag(product: .ntag215, uid: Self.uid, ndef: old)
        let reader = EmulatedPCSCReader(profile: .acr122u, tag: tag)
        let ops = Type2Tag(link: reader.type2Link())
        _ = try ops.readNDEF()
        let first = reader.plan.exchangeCount  // the next exchange is the first WRITE: not executed
        reader.plan.faults = [first: .statusWord(0x63, 0x00)]
        #expect(throws: TagError.status(sw1: 0x63, sw2: 0x00)) { try ops.writeNDEF(Self.message(70)) }
        let log = reader.plan.log
        #expect(log[first].starts(with: [0xFF, 0xD6]))
        #expect(log[first + 1] == [0xFF, 0xB0, 0x00, log[first][3], 0x10], "read back before deciding")
        #expect(log.count == first + 2, "nothing written after the refusal")
        #expect(try Type2Tag(link: reader.type2Link()).readNDEF() == old)
    }

    // MARK: Feedback that never answers

    @Test func boundedWorkThatEndsInTimeRunsWhatFollowsAtOnce() {
        let work = BoundedWork("test") {}
        #expect(work.wait(upTo: .seconds(30)))
        let ran = DispatchSemaphore(value: 0)
        work.afterwards { ran.signal() }
        #expect(ran.wait(timeout: .now()) == .success, "run at once, on this thread")
    }

    @Test func boundedWorkThatNeverAnswersIsLeftAndWhatFollowsWaitsForIt() {
        let release = DispatchSemaphore(value: 0)
        let closed = DispatchSemaphore(value: 0)
        let work = BoundedWork("test") { release.wait() }
        #expect(!work.wait(upTo: .milliseconds(20)))
        #expect(!work.hasEnded)
        work.afterwards { closed.signal() }
        #expect(closed.wait(timeout: .now()) == .timedOut, "not closed while the command is stuck")
        release.signal()
        #expect(closed.wait(timeout: .now() + 60) == .success)
        #expect(work.hasEnded)
    }

    @Test func unansweredFeedbackIsRememberedPerReaderAndItsBuzzerIsLeftAlone() {
        let registry = PCSCReaderRegistry()
        let name = "ACS ACR122U PICC Interface 00 00"
        #expect(!registry.feedbackUnanswered(readerName: name))
        #expect(registry.claimBuzzer(readerName: name))
        registry.noteFeedbackUnanswered(readerName: name)
        #expect(registry.feedbackUnanswered(readerName: name))
        #expect(!registry.feedbackUnanswered(readerName: "ACS ACR122U PICC Interface 01 00"))
    }

    @Test func theEmulatedFirmware215LeavesTheLEDCommandUnansweredUntilReleased() throws {
        let reader = EmulatedPCSCReader(profile: .acr122u, tag: try VirtualType2Tag(product: .ntag213, uid: Self.uid))
        reader.ledCommandNeverAnswers = true
        let answered = DispatchSemaphore(value: 0)
        let reply = Mutex<[UInt8]?>(nil)
        let thread = Thread {
            let answer = reader.transmit([0xFF, 0x00, 0x40, 0xA8, 0x04, 0x02, 0x01, 0x01, 0x01])
            reply.withLock { $0 = answer }
            answered.signal()
        }
        thread.start()
        while reader.plan.stalledExchanges == 0 { Thread.sleep(forTimeInterval: 0.005) }
        #expect(answered.wait(timeout: .now()) == .timedOut)
        reader.plan.releaseStalls()
        #expect(answered.wait(timeout: .now() + 60) == .success)
        #expect(reply.withLock { $0 }?.first == 0x90)
    }
}

/// `doctor`'s reader facts that need no reader: the IFD version attribute's text.
@Suite struct ReaderVersionTextTests {
    @Test func bcdDeviceVersionFromTheAttribute() {
        // libccid: bcdDevice << 16, as a little-endian DWORD (4 or 8 bytes on 64-bit Linux).
        #expect(PCSCReaderFirmware.versionText([0x00, 0x00, 0x14, 0x02]) == "2.14")
        #expect(PCSCReaderFirmware.versionText([0x00, 0x00, 0x01, 0x01, 0, 0, 0, 0]) == "1.01")
        #expect(PCSCReaderFirmware.versionText([0x05, 0x00, 0x00, 0x01]) == "1.00 build 5")
        #expect(PCSCReaderFirmware.versionText([0, 0, 0, 0]) == nil)
        #expect(PCSCReaderFirmware.versionText([0x01]) == nil)
    }
}
