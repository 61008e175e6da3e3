@testable import CoreNFCLinux
import Foundation
import NFCTags
import Testing

@Suite("NFCTagReaderSession")
struct TagReaderSessionTests {
    @Test("PollingOption raw values are Apple's; an empty option makes the initializer fail")
    func pollingOptions() {
        #expect(NFCTagReaderSession.PollingOption.iso14443.rawValue == 1)
        #expect(NFCTagReaderSession.PollingOption.iso15693.rawValue == 2)
        #expect(NFCTagReaderSession.PollingOption.iso18092.rawValue == 4)
        #expect(NFCTagReaderSession.PollingOption.pace.rawValue == 8)
        let h = Harness()
        #expect(h.tagSession(TagDelegate(), polling: []) == nil)
        #expect(h.tagSession(TagDelegate(), polling: [.iso14443, .iso15693]) != nil)
    }

    @Test("without .iso14443 or .iso15693 there is nothing to poll: 1")
    func noISO14443() {
        let h = Harness()
        let delegate = TagDelegate()
        let session = h.tagSession(delegate, polling: .pace)!
        session.begin()
        h.settle(session)
        #expect(delegate.log.summary == ["invalidated(1)"])
        #expect(h.backend.connects.isEmpty && !h.backend.isMonitoring)
    }

    @Test("an ISO-DEP card comes as .iso7816; APDUs go out byte for byte, status words come back")
    func iso7816() throws {
        let h = Harness()
        let card = type4Card("08 11 22 33")
        card.apduResponder = { apdu in
            switch apdu.hexString {
            case "00A4040007D276000085010100": return [0x90, 0x00]
            case "00B000000F": return [UInt8](hex: "000F20003B00340406E10400FF0000 9000")!
            default: return [0x6A, 0x82]
            }
        }
        let delegate = TagDelegate()
        let session = h.tagSession(delegate)!
        h.backend.place(card, on: "Reader A")
        session.begin()
        h.settle(session)
        #expect(delegate.log.summary == ["active", "tags(1)"])
        guard case let .iso7816(tag) = delegate.lastTags.first else {
            Issue.record("expected an .iso7816 tag")
            return
        }
        #expect(tag.identifier == Data([0x08, 0x11, 0x22, 0x33]))
        #expect(tag.historicalBytes == Data([0x80, 0x73]))
        #expect(tag.applicationData == nil)
        #expect(tag.initialSelectedAID == "")
        #expect(delegate.lastTags.first?.isAvailable == true)
        #expect(session.connectedTag == nil)

        let connected = Completion<(any Error)?>()
        session.connect(to: delegate.lastTags[0]) { connected.fulfil($0) }
        #expect(connected.wait()! == nil)
        guard case let .iso7816(current)? = session.connectedTag else {
            Issue.record("connectedTag should be the ISO 7816 tag")
            return
        }
        #expect(current === tag)

        let select = NFCISO7816APDU(instructionClass: 0x00, instructionCode: 0xA4, p1Parameter: 0x04, p2Parameter: 0x00,
                                    data: Data([0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]), expectedResponseLength: 256)
        let selected = Completion<(Data, UInt8, UInt8, (any Error)?)>()
        tag.sendCommand(apdu: select) { selected.fulfil(($0, $1, $2, $3)) }
        let reply = selected.wait()!
        #expect(reply.0.isEmpty && reply.1 == 0x90 && reply.2 == 0x00 && reply.3 == nil)

        let readCC = NFCISO7816APDU(data: Data([UInt8](hex: "00 B0 00 00 0F")!))!
        let cc = Completion<(Data, UInt8, UInt8, (any Error)?)>()
        tag.sendCommand(apdu: readCC) { cc.fulfil(($0, $1, $2, $3)) }
        let ccReply = cc.wait()!
        #expect([UInt8](ccReply.0) == [UInt8](hex: "000F20003B00340406E10400FF0000")!)
        #expect(ccReply.1 == 0x90 && ccReply.2 == 0x00)

        let missing = NFCISO7816APDU(instructionClass: 0x00, instructionCode: 0xA4, p1Parameter: 0x00, p2Parameter: 0x0C,
                                     data: Data([0xE1, 0x04]), expectedResponseLength: -1)
        let notFound = Completion<(Data, UInt8, UInt8, (any Error)?)>()
        tag.sendCommand(apdu: missing) { notFound.fulfil(($0, $1, $2, $3)) }
        let nf = notFound.wait()!
        #expect(nf.1 == 0x6A && nf.2 == 0x82 && nf.3 == nil)

        #expect(card.apdusSent.map(\.hexString) == ["00A4040007D276000085010100", "00B000000F", "00A4000C02E104"])
        session.invalidate()
        h.settle(session)
        #expect(session.connectedTag == nil)
    }

    @Test("sendCommand async form, short replies and bad Le are errors")
    func iso7816Errors() async throws {
        let h = Harness()
        let card = type4Card()
        card.apduResponder = { apdu in apdu[1] == 0xB0 ? [0x90] : [0x01, 0x02, 0x90, 0x00] }
        let delegate = TagDelegate()
        let session = h.tagSession(delegate)!
        h.backend.place(card, on: "Reader A")
        session.begin()
        h.settle(session)
        guard case let .iso7816(tag)? = delegate.lastTags.first else {
            Issue.record("expected an .iso7816 tag")
            return
        }
        try await session.connect(to: delegate.lastTags[0])
        let (data, sw1, sw2) = try await tag.sendCommand(apdu: NFCISO7816APDU(data: Data([0x00, 0xCA, 0x00, 0x00, 0x00]))!)
        #expect(data == Data([0x01, 0x02]) && sw1 == 0x90 && sw2 == 0x00)
        await #expect(throws: NFCReaderError.self) {
            try await tag.sendCommand(apdu: NFCISO7816APDU(data: Data([0x00, 0xB0, 0x00, 0x00, 0x10]))!)
        }
        let badLe = NFCISO7816APDU(instructionClass: 0, instructionCode: 0xB0, p1Parameter: 0, p2Parameter: 0,
                                   data: Data(), expectedResponseLength: 0)
        do {
            _ = try await tag.sendCommand(apdu: badLe)
            Issue.record("Le 0 must be rejected")
        } catch {
            #expect(code(error) == NFCReaderError.Code.readerErrorParameterOutOfBound.rawValue)
        }
        #expect(card.apdusSent.count == 2)  // the bad APDU never reached the card
        session.invalidate()
    }

    @Test("connect selects the first answering AID of iso7816SelectIdentifiers")
    func initialSelectedAID() async throws {
        let h = Harness()
        h.configuration.iso7816SelectIdentifiers = [[0xA0, 0x00, 0x00, 0x00, 0x03], [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]]
        let card = type4Card()
        card.apduResponder = { apdu in apdu.hexString == "00A4040007D276000085010100" ? [0x90, 0x00] : [0x6A, 0x82] }
        let delegate = TagDelegate()
        let session = h.tagSession(delegate)!
        h.backend.place(card, on: "Reader A")
        session.begin()
        h.settle(session)
        guard case let .iso7816(tag)? = delegate.lastTags.first else {
            Issue.record("expected an .iso7816 tag")
            return
        }
        try await session.connect(to: delegate.lastTags[0])
        #expect(tag.initialSelectedAID == "D2760000850101")
        #expect(card.apdusSent.map(\.hexString) == ["00A4040005A00000000300", "00A4040007D276000085010100"])
        session.invalidate()
    }

    @Test("a Type 2 tag comes as .miFare of family .ultralight; raw commands map onto the Type 2 link")
    func miFare() async throws {
        let h = Harness()
        let card = ntag("04 A1 B2 C3 D4 E5 80")
        let delegate = TagDelegate()
        let session = h.tagSession(delegate)!
        h.backend.place(card, on: "Reader A")
        session.begin()
        h.settle(session)
        guard case let .miFare(tag)? = delegate.lastTags.first else {
            Issue.record("expected a .miFare tag")
            return
        }
        #expect(tag.mifareFamily == .ultralight)
        #expect(tag.identifier == Data([0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0x80]))
        #expect(tag.historicalBytes == nil)
        try await session.connect(to: delegate.lastTags[0])

        let page4 = try await tag.sendMiFareCommand(commandPacket: Data([0x30, 0x04]))
        #expect([UInt8](page4) == [4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7])
        let ack = try await tag.sendMiFareCommand(commandPacket: Data([0xA2, 0x05, 0xDE, 0xAD, 0xBE, 0xEF]))
        #expect([UInt8](ack) == [0x0A])  // iOS: the 4-bit ACK as one byte
        #expect(card.pages[5] == [0xDE, 0xAD, 0xBE, 0xEF])
        let fast = try await tag.sendMiFareCommand(commandPacket: Data([0x3A, 0x05, 0x06]))
        #expect([UInt8](fast) == [0xDE, 0xAD, 0xBE, 0xEF, 6, 6, 6, 6])
        let version = try await tag.sendMiFareCommand(commandPacket: Data([0x60]))
        #expect([UInt8](version) == [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03])
        #expect(card.type2Log == ["READ 4", "WRITE 5 DEADBEEF", "FAST_READ 5-6", "GET_VERSION"])

        await #expect(throws: NFCReaderError(.readerErrorUnsupportedFeature, message: "command 1Bh is not supported through this reader")) {
            _ = try await tag.sendMiFareCommand(commandPacket: Data([0x1B, 0xFF, 0xFF, 0xFF, 0xFF]))
        }
        do {
            _ = try await tag.sendMiFareISO7816Command(NFCISO7816APDU(data: Data([0x00, 0xCA, 0x00, 0x00, 0x00]))!)
            Issue.record("Ultralight takes no APDUs")
        } catch {
            #expect(code(error) == 1)
        }
        #expect(card.type2Log.count == 4)
        session.invalidate()
    }

    @Test("tags of another technology are not reported")
    func otherTechnology() {
        let h = Harness(readers: ["Reader A", "Reader B"])
        let delegate = TagDelegate()
        let session = h.tagSession(delegate)!
        h.backend.place(FakeCard(uid: [1, 2, 3, 4], technology: .other), on: "Reader A")
        session.begin()
        h.settle(session)
        #expect(delegate.log.summary == ["active"])
        h.backend.place(ntag(), on: "Reader B")
        h.settle(session)
        #expect(delegate.log.summary == ["active", "tags(1)"])
        session.invalidate()
        h.settle(session)
    }

    @Test("several tags come in one didDetect; restartPolling re-reports them and clears connectedTag")
    func severalAndRestart() {
        let h = Harness(readers: ["Reader A", "Reader B"])
        let delegate = TagDelegate()
        let session = h.tagSession(delegate)!
        h.backend.place(ntag(), on: "Reader A")
        h.backend.place(type4Card(), on: "Reader B")
        session.begin()
        h.settle(session)
        let first = delegate.lastTags
        #expect(first.count == 2)
        guard case .miFare = first[0], case .iso7816 = first[1] else {
            Issue.record("expected [.miFare, .iso7816]")
            return
        }
        let connected = Completion<(any Error)?>()
        session.connect(to: first[1]) { connected.fulfil($0) }
        #expect(connected.wait()! == nil)
        #expect(session.connectedTag != nil)
        session.restartPolling()
        h.settle(session)
        #expect(delegate.log.summary == ["active", "tags(2)", "tags(2)"])
        #expect(session.connectedTag == nil)
        #expect(first.allSatisfy { !$0.isAvailable })
        #expect(delegate.lastTags.allSatisfy { $0.isAvailable })
        session.invalidate()
        h.settle(session)
    }

    @Test("the connected tag leaving clears connectedTag; operations get 100")
    func connectedTagLeaves() {
        let h = Harness()
        let delegate = TagDelegate()
        let session = h.tagSession(delegate)!
        h.backend.place(type4Card(), on: "Reader A")
        session.begin()
        h.settle(session)
        guard case let .iso7816(tag)? = delegate.lastTags.first else {
            Issue.record("expected an .iso7816 tag")
            return
        }
        let connected = Completion<(any Error)?>()
        session.connect(to: delegate.lastTags[0]) { connected.fulfil($0) }
        _ = connected.wait()
        h.backend.remove(from: "Reader A")
        h.settle(session)
        #expect(session.connectedTag == nil)
        let sent = Completion<(Data, UInt8, UInt8, (any Error)?)>()
        tag.sendCommand(apdu: NFCISO7816APDU(data: Data([0x00, 0xCA, 0x00, 0x00, 0x00]))!) { sent.fulfil(($0, $1, $2, $3)) }
        #expect(code(sent.wait()!.3) == 100)
        #expect(session.isReady)
        session.invalidate()
        h.settle(session)
    }
}
