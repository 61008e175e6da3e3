import Foundation
import Testing
@testable import CoreNFCLinux
import NFCTags
import TagEmulation

/// Issue 12 item 4: `sendMiFareCommand`'s raw Type 2 commands on PC/SC readers, chosen by reader
/// identity (ACR122U direct transmit; PC/SC Part 3 transparent exchange elsewhere), against the
/// emulated personalities.
@Suite struct RawType2CommandTests {
    static let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0x80]

    static func reader(_ profile: PCSCReaderProfile, _ product: Type2Product = .ntag216) throws -> EmulatedPCSCReader {
        EmulatedPCSCReader(profile: profile, tag: try VirtualType2Tag(product: product, uid: uid, ndef: [0xD0, 0x00, 0x00]))
    }

    @Test(arguments: [PCSCReaderProfile.acr122u, .acr1252u, .identiv, .omnikey, .springcard])
    func rawCommandsPassOnReadersThatCan(profile: PCSCReaderProfile) throws {
        let reader = try Self.reader(profile)
        let link = reader.type2Link()
        #expect(try Type2Command.send([0x60], over: link) == Type2Product.ntag216.versionBytes)
        let signature = try Type2Command.send([0x3C, 0x00], over: link)
        #expect(signature.count == 32)
        #expect(signature == (reader.tag as? VirtualType2Tag)?.originalitySignature)
        let pages = try Type2Command.send([0x3A, 0x04, 0x05], over: link)
        #expect(pages.count == 8)
        #expect(pages.prefix(4) == [0x03, 0x03, 0xD0, 0x00])
        #expect(!reader.isTransparentSessionOpen, "every transparent session is ended")
    }

    @Test func exactTransparentExchangeBytes() throws {
        let reader = try Self.reader(.omnikey)
        _ = try Type2Command.send([0x3C, 0x00], over: reader.type2Link())
        // PC/SC Part 3 supplement §3.2.7: start session (DO 81), transceive (DO 95), end session (DO 82).
        #expect(reader.plan.log == [[0xFF, 0xC2, 0x00, 0x00, 0x02, 0x81, 0x00],
                                    [0xFF, 0xC2, 0x00, 0x01, 0x04, 0x95, 0x02, 0x3C, 0x00, 0x00],
                                    [0xFF, 0xC2, 0x00, 0x00, 0x02, 0x82, 0x00]])
    }

    @Test func exactDirectTransmitBytes() throws {
        let reader = try Self.reader(.acr122u)
        _ = try Type2Command.send([0x3C, 0x00], over: reader.type2Link())
        // ACR122U API v2.04 §6.1: FF 00 00 00 Lc, then the PN532's InCommunicateThru D4 42.
        #expect(reader.plan.log == [[0xFF, 0x00, 0x00, 0x00, 0x04, 0xD4, 0x42, 0x3C, 0x00]])
    }

    @Test func genericReadersTryTheTransparentExchangeOnceThenAnswerUnsupportedFeature() throws {
        // A reader nfctap does not know by name is asked for a transparent session when an app
        // sends a raw frame; this one refuses (6D 00): error 1 naming the command and the answer.
        let reader = try Self.reader(.generic)
        let link = reader.type2Link()
        do {
            _ = try Type2Command.send([0x60], over: link)
            Issue.record("GET_VERSION passed a reader without a raw path")
        } catch let error as NFCReaderError {
            #expect(error.code == .readerErrorUnsupportedFeature)
            #expect(error.message.hasPrefix("this reader cannot pass GET_VERSION: the reader refused a transparent session (6D 00"), "\(error.message)")
        }
        #expect(throws: NFCReaderError(.readerErrorUnsupportedFeature, message: "command 3Ch is not supported through this reader")) {
            try Type2Command.send([0x3C, 0x00], over: link)
        }
        #expect(reader.plan.log == [[0xFF, 0xC2, 0x00, 0x00, 0x02, 0x81, 0x00]], "asked once")
    }

    @Test(arguments: [PCSCReaderProfile.acr1252u, .identiv, .omnikey, .springcard])
    func anUnknownNamedReaderWithTheTransparentExchangePassesTheThirdPartyReadSequence(personality: PCSCReaderProfile) throws {
        // GET_VERSION, then FAST_READ of the NDEF area, as an iOS NTAG215 reader does, through a
        // reader whose name says nothing (the generic profile, as pcscd names vpcd's reader).
        let reader = try Self.reader(personality, .ntag215)
        let link = PseudoAPDUType2Link(transceiver: EmulatedPCSCTransceiver(reader: reader), profile: .generic)
        #expect(try Type2Command.send([0x60], over: link) == Type2Product.ntag215.versionBytes)
        let pages = try Type2Command.send([0x3A, 0x04, 0x0F], over: link)
        #expect(pages.count == 48 && pages.prefix(4) == [0x03, 0x03, 0xD0, 0x00])
        #expect(try Type2Command.send([0x3C, 0x00], over: link) == (reader.tag as? VirtualType2Tag)?.originalitySignature)
        // PWD_AUTH with the factory password: PACK 00 00.
        #expect(try Type2Command.send([0x1B, 0xFF, 0xFF, 0xFF, 0xFF], over: link) == [0x00, 0x00])
        #expect(reader.plan.exchangeCount == 12, "3 APDUs per frame")
        #expect(!reader.isTransparentSessionOpen)
    }

    @Test func aReaderRefusingTheTransparentExchangeAnswersUnsupportedFeature() throws {
        let reader = try Self.reader(.identiv)
        reader.refusesTransparentExchange = true
        let link = reader.type2Link()
        #expect(throws: NFCReaderError(.readerErrorUnsupportedFeature, message: "command 3Ch is not supported through this reader")) {
            try Type2Command.send([0x3C, 0x00], over: link)
        }
        #expect(!link.canSendRawCommands, "asked once, then known")
        #expect(reader.plan.exchangeCount == 1)
    }

    @Test func theEmulatedChipAnswersPWDAUTHWithPACKOrNAK() throws {
        let tag = try VirtualType2Tag(product: .ntag215, uid: Self.uid)
        #expect(tag.respond(to: [0x1B, 0xFF, 0xFF, 0xFF, 0xFF]) == [0x00, 0x00], "factory PWD, factory PACK")
        #expect(tag.respond(to: [0x1B, 0x12, 0x34, 0x56, 0x78]) == [0x00], "a wrong password is a NAK")
        #expect(tag.respond(to: [0x30, 0x04]) == nil, "and the chip went mute (IDLE) after it")
        let ultralightC = try VirtualType2Tag(product: .ultralightC, uid: Self.uid)
        #expect(ultralightC.respond(to: [0x1B, 0xFF, 0xFF, 0xFF, 0xFF]) == nil, "no PWD_AUTH on an Ultralight C")
    }

    @Test func aMuteTagThroughTheTransparentExchangeIsUnsupportedAndStillReadable() throws {
        // Ultralight C: no GET_VERSION (C0 03 01 64 01: no answer), re-presented by a reset.
        let reader = try Self.reader(.acr1252u, .ultralightC)
        let tag = Type2Tag(link: reader.type2Link())
        let info = try tag.inspect()
        #expect(info.version == nil)
        #expect(!info.productIdentified)
        #expect(try tag.readNDEF() == [0xD0, 0x00, 0x00])
    }
}
