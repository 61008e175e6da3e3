import NFCTags
import TagEmulation
import Testing

/// FeliCa frames through emulated PC/SC reader personalities (docs/tags-and-readers.md §9.1):
/// the exact pseudo-APDUs, and a refusal or a silent card as typed errors.
@Suite("FeliCa through PC/SC pseudo-APDUs")
struct PCSCFeliCaChannelTests {
    static let poll = T3.hex("06 00 12 FC 00 00")

    func channel(_ profile: PCSCReaderProfile, card: VirtualFeliCaCard = .liteS(ndef: [])) -> (PCSCFeliCaChannel, EmulatedPCSCReader) {
        let reader = EmulatedPCSCReader(profile: profile, tag: card)
        return (PCSCFeliCaChannel.make(reader: EmulatedPCSCTransceiver(reader: reader), profile: profile), reader)
    }

    @Test("transparent exchange: start session and switch protocol once, then one FF C2 00 01 per frame")
    func transparent() throws {
        let (channel, reader) = channel(.springcard)
        let card = VirtualFeliCaCard.liteS(ndef: [])
        let answer = try channel.transceive(Self.poll)
        #expect(answer == card.respond(to: Self.poll))
        _ = try channel.transceive(Self.poll)
        #expect(reader.plan.log == [PCSCFeliCaChannel.startSession, PCSCFeliCaChannel.switchToFeliCa,
                                    T3.hex("FF C2 00 01 08 95 06 06 00 12 FC 00 00 00"), T3.hex("FF C2 00 01 08 95 06 06 00 12 FC 00 00 00")])
    }

    @Test("ACR122U direct transmit: FF 00 00 00 Lc D4 42 frame")
    func direct() throws {
        let (channel, reader) = channel(.acr122u)
        #expect(channel.path == .directTransmit)
        _ = try channel.transceive(Self.poll)
        #expect(reader.plan.log == [T3.hex("FF 00 00 00 08 D4 42 06 00 12 FC 00 00")])
    }

    @Test("a reader without the transparent exchange says it cannot reach FeliCa")
    func refused() {
        let (channel, _) = channel(.generic)
        #expect(throws: TagError.unsupported("FeliCa through this reader (it refused the transparent exchange: 6D 00 (instruction not supported))")) {
            try channel.transceive(Self.poll)
        }
    }

    @Test("a card that does not answer is a lost tag on both paths")
    func silentCard() {
        for profile in [PCSCReaderProfile.springcard, .acr122u] {
            let (channel, _) = channel(profile)
            // Request Response: a Lite-S does not implement it.
            #expect(throws: TagError.tagLost) { try channel.transceive(T3.hex("0A 04") + VirtualFeliCaCard.defaultLiteSIDm) }
        }
    }

    @Test("a garbled transparent-exchange reply is a malformed reply")
    func garbled() throws {
        let (channel, reader) = channel(.springcard)
        reader.plan.faults = [2: .replace(T3.hex("C0 03 00 90 00 97 20 01 90 00"))]
        #expect(throws: TagError.self) { try channel.transceive(Self.poll) }
        do { _ = try channel.transceive(Self.poll) } catch { Issue.record("the next exchange failed: \(error)") }
    }
}
