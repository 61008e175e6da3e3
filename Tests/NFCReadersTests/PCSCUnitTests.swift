import Glibc
import NDEF
import NFCTags
@testable import NFCReaders
@testable import PCSC
import ReaderCore
import Testing

/// Ring 1 for the PC/SC layer: codes, state words, reader choice, ATR classes, error mapping.
@Suite struct PCSCErrorTests {
    @Test(arguments: [
        (PCSCError.cancelled, 0x8010_0002), (.timeout, 0x8010_000A), (.sharingViolation, 0x8010_000B),
        (.noSmartcard, 0x8010_000C), (.notTransacted, 0x8010_0016), (.readerUnavailable, 0x8010_0017),
        (.noService, 0x8010_001D), (.serviceStopped, 0x8010_001E), (.noReadersAvailable, 0x8010_002E),
        (.resetCard, 0x8010_0068), (.removedCard, 0x8010_0069), (.unknownReader, 0x8010_0009),
        (.invalidHandle, 0x8010_0003), (.insufficientBuffer, 0x8010_0008),
    ])
    func namedCodesKeepPCSCLiteValues(error: PCSCError, raw: Int) {
        #expect(error.rawValue == raw)
        #expect(PCSCError(rawValue: raw) == error)
    }

    @Test func descriptionComesFromPCSCLiteWithTheCode() {
        #expect(PCSCError.noService.description == "Service not available. (0x8010001D)")
        #expect(PCSCError.removedCard.description == "Card was removed. (0x80100069)")
    }

    @Test func unknownCodesStayVisible() {
        let odd = PCSCError(rawValue: 0x8010_0099)
        #expect(odd.rawValue == 0x8010_0099)
        #expect(odd.description.hasSuffix("(0x80100099)"))
        #expect(odd != .timeout)
    }

    @Test func patternMatchingInCatch() {
        func classify(_ error: Error) -> String {
            switch error {
            case PCSCError.timeout: return "timeout"
            case PCSCError.cancelled: return "cancelled"
            default: return "other"
            }
        }
        #expect(classify(PCSCError(rawValue: 0x8010_000A)) == "timeout")
        #expect(classify(PCSCError.cancelled) == "cancelled")
        #expect(classify(PCSCError.noService) == "other")
        #expect(classify(TagError.tagLost) == "other")
        do {
            try check(0x8010_0002)
            Issue.record("check did not throw")
        } catch PCSCError.cancelled {
        } catch {
            Issue.record("wrong error \(error)")
        }
        #expect(throws: Never.self) { try check(0) }
    }

    @Test func controlCodeIsSCARD_CTL_CODE() {
        #expect(controlCode(1) == 0x4200_0001)
        #expect(controlCode(3400) == 0x4200_0D48)
    }

    @Test func timeoutsInMilliseconds() {
        #expect(Context.milliseconds(nil) == 0xFFFF_FFFF)
        #expect(Context.milliseconds(.zero) == 0)
        #expect(Context.milliseconds(.milliseconds(250)) == 250)
        #expect(Context.milliseconds(.seconds(3)) == 3000)
        #expect(Context.milliseconds(.seconds(-1)) == 0)
        // Never INFINITE by accident, never an overflow trap.
        #expect(Context.milliseconds(.seconds(Int64.max)) == 0xFFFF_FFFE)
        #expect(Context.milliseconds(.seconds(5_000_000)) == 0xFFFF_FFFE)
    }

    @Test func multiStringsSplitIntoNames() {
        let bytes = Array("Virtual PCD 00 00\0Virtual PCD 00 01\0\0".utf8)
        #expect(Context.splitMultiString(bytes) == ["Virtual PCD 00 00", "Virtual PCD 00 01"])
        #expect(Context.splitMultiString([0]).isEmpty)
        #expect(Context.splitMultiString([]).isEmpty)
    }
}

@Suite struct PCSCReaderStateTests {
    @Test func eventWordSplitsFlagsAndCounter() {
        var state = ReaderState(reader: "Virtual PCD 00 00")
        state.setEventStateWord(0x0003_0122)  // counter 3; INUSE | PRESENT | CHANGED
        #expect(state.eventCounter == 3)
        #expect(state.eventState == [.inUse, .present, .changed])
        #expect(state.hasChanged)
        #expect(state.eventState.description == "changed|present|inUse")
    }

    @Test func acknowledgeCopiesEventToCurrentWithoutChanged() {
        var state = ReaderState(reader: "r")
        #expect(state.currentStateWord == 0)  // UNAWARE
        state.setEventStateWord(0xFFFF_0232)  // counter 0xFFFF; MUTE | PRESENT | EMPTY | CHANGED
        state.acknowledge()
        #expect(state.currentState == [.mute, .present, .empty])
        #expect(state.currentCounter == 0xFFFF)
        #expect(state.currentStateWord == 0xFFFF_0230)
    }

    @Test func flagValuesMatchPCSCLite() {
        let expected: [(ReaderState.Flags, UInt)] = [
            (.ignore, 0x1), (.changed, 0x2), (.unknown, 0x4), (.unavailable, 0x8), (.empty, 0x10),
            (.present, 0x20), (.atrMatch, 0x40), (.exclusive, 0x80), (.inUse, 0x100), (.mute, 0x200),
            (.unpowered, 0x400),
        ]
        for (flag, raw) in expected { #expect(flag.rawValue == raw) }
        #expect(ReaderState.Flags.unaware.rawValue == 0)
        #expect(ReaderState.Flags.unaware.description == "unaware")
    }

    @Test func wordsWiderThan32BitsDoNotTrap() {
        var state = ReaderState(reader: "r")
        state.setEventStateWord(UInt.max)
        #expect(state.eventCounter == 0xFFFF)
        #expect(state.eventState.rawValue == 0xFFFF)
    }

    @Test func plugAndPlayName() {
        #expect(ReaderState.plugAndPlayReader == #"\\?PnP?\Notification"#)
        #expect(ReaderState(reader: #"\\?PnP?\Notification"#).isPlugAndPlay)
        #expect(!ReaderState(reader: "Virtual PCD 00 00").isPlugAndPlay)
    }
}

@Suite struct PCSCReaderSelectionTests {
    let acs = ReaderInfo(name: "ACS ACR122U PICC Interface 00 00", backend: .pcsc, supportsFeedback: true)
    let v0 = ReaderInfo(name: "Virtual PCD 00 00", backend: .pcsc)
    let v1 = ReaderInfo(name: "Virtual PCD 00 01", backend: .pcsc)

    @Test func exactNameWins() throws {
        // "Virtual PCD 00 0" would be ambiguous as a substring; the exact name is not.
        let shortName = ReaderInfo(name: "Virtual PCD 00 0", backend: .pcsc)
        #expect(try ReaderSelection.select("Virtual PCD 00 0", from: [v0, shortName, v1]) == shortName)
        #expect(try ReaderSelection.select("Virtual PCD 00 01", from: [acs, v0, v1]) == v1)
    }

    @Test func uniqueCaseInsensitiveSubstring() throws {
        #expect(try ReaderSelection.select("acr122", from: [acs, v0, v1]) == acs)
        #expect(try ReaderSelection.select("pcd 00 01", from: [acs, v0, v1]) == v1)
    }

    @Test func severalMatchesAreAmbiguous() {
        #expect(throws: ReaderError.ambiguousReader("virtual", matches: [v0.name, v1.name])) {
            try ReaderSelection.select("virtual", from: [acs, v0, v1])
        }
    }

    @Test func noMatchIsNotFound() {
        #expect(throws: ReaderError.readerNotFound("SCM")) { try ReaderSelection.select("SCM", from: [acs, v0]) }
        #expect(throws: ReaderError.readerNotFound("")) { try ReaderSelection.select("", from: [acs, v0]) }
    }

    @Test func optionalWithOneReader() throws {
        #expect(try ReaderSelection.select(nil, from: [v0]) == v0)
        #expect(throws: ReaderError.ambiguousReader("", matches: [v0.name, v1.name])) {
            try ReaderSelection.select(nil, from: [v0, v1])
        }
    }

    @Test func noReaders() {
        #expect(throws: ReaderError.noReaders) { try ReaderSelection.select(nil, from: []) }
        #expect(throws: ReaderError.noReaders) { try ReaderSelection.select("acr", from: []) }
    }
}

@Suite struct PCSCATRClassificationTests {
    func atr(_ hex: String) -> [UInt8] { [UInt8](hex: hex)! }

    @Test func ultralightAndNTAGAreType2() {
        let c = ATRClassification.classify(atr("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68"))
        #expect(c == ATRClassification(technology: .type2, historicalBytes: []))
        // Ultralight C (00 3A) and EV1 (00 3D), TCK recomputed.
        #expect(ATRClassification.classify(atr("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 3A 00 00 00 00 51")).technology == .type2)
        #expect(ATRClassification.classify(atr("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 3D 00 00 00 00 56")).technology == .type2)
    }

    @Test func classicIsClassicAndFeliCaIsFeliCa() {
        // Card names 00 01 (1K), 00 02 (4K), 00 26 (Mini): MIFARE Classic, never Type 2 (docs/tags-and-readers.md §10).
        #expect(ATRClassification.classify(atr("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 01 00 00 00 00 6A")).technology == .mifareClassic)
        #expect(ATRClassification.classify(atr("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 02 00 00 00 00 69")).technology == .mifareClassic)
        #expect(ATRClassification.classify(atr("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 26 00 00 00 00 4D")).technology == .mifareClassic)
        // ACM1252U (standard 11, name 00 3B) and older ACR122T firmware (standard 03, name F0 11); docs/tags-and-readers.md §9.1.
        #expect(ATRClassification.classify(atr("3B 8F 80 01 80 4F 0C A0 00 00 03 06 11 00 3B 00 00 00 00 42")).technology == .feliCa)
        #expect(ATRClassification.classify(atr("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 F0 11 00 00 00 00 8A")).technology == .feliCa)
    }

    @Test func isoDEPIsType4WithHistoricalBytes() {
        #expect(ATRClassification.classify(atr("3B 80 80 01 01")) == ATRClassification(technology: .type4, historicalBytes: []))
        #expect(ATRClassification.classify(atr("3B 81 80 01 80 80")) == ATRClassification(technology: .type4, historicalBytes: [0x80]))
        // A phone/HCE-style ATS: historical bytes kept whole.
        let hce = atr("3B 88 80 01 00 00 00 00 33 81 81 00 3A")
        #expect(ATRClassification.classify(hce) == ATRClassification(technology: .type4, historicalBytes: [0x00, 0x00, 0x00, 0x00, 0x33, 0x81, 0x81, 0x00]))
    }

    @Test func malformedATRsAreOtherNotATrap() {
        #expect(ATRClassification.classify([]).technology == .other)
        #expect(ATRClassification.classify([0x3B]).technology == .other)
        #expect(ATRClassification.classify(atr("3B 8F 80 01")).technology == .other)                         // truncated
        #expect(ATRClassification.classify(atr("3B 81 80 01 80 81")).technology == .other)                   // bad TCK
        #expect(ATRClassification.classify(atr("3B 81 80 01 80 80 00")).technology == .other)                // trailing byte
        #expect(ATRClassification.classify(atr("3B 02 14 50")).technology == .other)                         // contact card
        #expect(ATRClassification.classify(atr("3F 81 80 01 80 80")).technology == .other)                   // inverse convention
    }
}

@Suite struct PCSCErrorMappingTests {
    @Test func exchangeErrorsBecomeTagErrors() {
        #expect(PCSCError.removedCard.tagError == .tagLost)
        #expect(PCSCError.noSmartcard.tagError == .tagLost)
        #expect(PCSCError.resetCard.tagError == .tagLost)
        #expect(PCSCError.readerUnavailable.tagError == .readerGone)
        #expect(PCSCError.unknownReader.tagError == .readerGone)
        #expect(PCSCError.noService.tagError == .readerGone)
        #expect(PCSCError.serviceStopped.tagError == .readerGone)
        #expect(PCSCError.commError.tagError == .readerGone)
        #expect(PCSCError.sharingViolation.tagError == .readerBusy)
        #expect(PCSCError.notTransacted.tagError
                == .transport(code: 0x8010_0016, message: PCSCError.notTransacted.description))
    }

    @Test func backendErrorsBecomeReaderErrors() {
        let name = "Virtual PCD 00 00"
        #expect(PCSCError.noService.readerError(reader: name) == .serviceUnavailable(hint: PCSCBackend.serviceHint))
        #expect(PCSCError.sharingViolation.readerError(reader: name) == .readerBusy(name))
        #expect(PCSCError.readerUnavailable.readerError(reader: name) == .readerGone(name))
        #expect(PCSCError.removedCard.readerError(reader: name) == .tagGone)
        #expect(PCSCError.timeout.readerError(reader: name) == .other(code: 0x8010_000A, message: PCSCError.timeout.description))
    }

    @Test func theHintIsTheExactFix() {
        let sudo = getuid() == 0 ? "" : "sudo "
        #expect(PCSCBackend.serviceHint == "pcscd is not running: \(sudo)systemctl enable --now pcscd.socket "
                + "(without systemd: \(sudo)pcscd; if it is not installed: \(sudo)apt-get install pcscd libccid)")
    }

    @Test func feedbackPseudoAPDUs() {
        #expect(PCSCTagConnection.feedbackCommand(.success) == [UInt8](hex: "FF 00 40 A8 04 02 01 01 01")!)
        #expect(PCSCTagConnection.feedbackCommand(.failure) == [UInt8](hex: "FF 00 40 54 04 01 01 02 00")!)
    }

    @Test func feedbackOnACSReadersWithLEDAndBuzzer() {
        #expect(PCSCBackend.readerInfo("ACS ACR122U PICC Interface 00 00").supportsFeedback)
        #expect(PCSCBackend.readerInfo("acs acr122 00 00").supportsFeedback)
        #expect(PCSCBackend.readerInfo("ACS ACR 38U-CCID 00 00").supportsFeedback)
        // ACR1252U: escape commands (reference manual "LED Control", "Buzzer Control").
        #expect(PCSCBackend.readerInfo("ACS ACR1252 1S CL Reader [ACR1252 Reader PICC] 00 00").supportsFeedback)
        #expect(!PCSCBackend.readerInfo("Identiv uTrust 3700 F CL Reader 00 00").supportsFeedback)
        #expect(!PCSCBackend.readerInfo("Virtual PCD 00 00").supportsFeedback)
        #expect(PCSCBackend.readerInfo("Virtual PCD 00 00").backend == .pcsc)
    }
}
