import Testing
@testable import Pairing
import ZebraPrinter

/// A printer link whose reply arrives in scripted pieces; records every send.
private final class ScriptedLink: PrinterLink {
    private(set) var sent: [[UInt8]] = []
    /// Pieces still to arrive, in order; one is delivered each time the reply is still incomplete.
    var pieces: [[UInt8]]

    init(reply pieces: [[UInt8]] = []) {
        self.pieces = pieces
    }

    func send(_ bytes: [UInt8]) throws {
        sent.append(bytes)
    }

    /// Like the real links: collects until complete; running out of pieces is the timeout.
    func receive(until isComplete: ([UInt8]) -> Bool, timeout: Duration) throws -> [UInt8] {
        var got: [UInt8] = []
        while !isComplete(got) {
            guard !pieces.isEmpty else { throw PairingError.replyTimeout(received: got.count) }
            got += pieces.removeFirst()
        }
        return got
    }

    func close() {}
}

@Suite struct PrinterConversationTests {
    /// The ZQ630 Plus reply from docs/zebra.md §3 (paper out, tear-off), 82 bytes.
    static let zq630: [UInt8] =
        [0x02] + Array("159,1,0,0249,000,0,0,0,000,0,0,0".utf8) + [0x03, 0x0D, 0x0A] +
        [0x02] + Array("000,0,0,0,0,2,6,0,00000000,1,000".utf8) + [0x03, 0x0D, 0x0A] +
        [0x02] + Array("0000,0".utf8) + [0x03, 0x0D, 0x0A]

    @Test func hostStatusSendsTildeHSAndParsesAReplySplitAnywhere() throws {
        #expect(Self.zq630.count == 82)
        for cuts in [[20, 37, 40, 60], [1, 2, 3], [38, 39], [79]] {
            var pieces: [[UInt8]] = []
            var start = 0
            for cut in cuts + [82] {
                pieces.append(Array(Self.zq630[start..<cut]))
                start = cut
            }
            let link = ScriptedLink(reply: pieces + [[0x02]])   // a stray byte after the reply is never read
            let status = try PrinterConversation(link: link).hostStatus()
            #expect(link.sent == [[0x7E, 0x48, 0x53]])          // "~HS"
            #expect(link.pieces == [[0x02]], "read past the end of the reply for cuts \(cuts)")
            #expect(status.paperOut)
            #expect(!status.paused && !status.headUp && !status.ribbonOut)
            #expect(status.printMode == .tearOff)
            #expect(status.labelLengthDots == 249)
            #expect(status.communicationSettings == 159)
            #expect(status.summary == "paper out")
        }
        // Complete at the third ETX: the final CR LF is not waited for.
        let early = ScriptedLink(reply: [Array(Self.zq630[0..<80]), [0x0D, 0x0A]])
        #expect(try PrinterConversation(link: early).hostStatus().paperOut)
        #expect(early.pieces == [[0x0D, 0x0A]])
    }

    @Test func aTruncatedStatusTimesOutWithTheByteCount() {
        let link = ScriptedLink(reply: [Array(Self.zq630[0..<40]), Array(Self.zq630[40..<77])])
        #expect(throws: PairingError.replyTimeout(received: 77)) {
            try PrinterConversation(link: link).hostStatus()
        }
    }

    @Test func aMalformedStatusIsATypedErrorNotAStatus() {
        // Line 1 with 11 fields instead of 12: complete as soon as its ETX arrives.
        let bad: [UInt8] = [0x02] + Array("159,1,0,0249,000,0,0,0,000,0,0".utf8) + [0x03, 0x0D, 0x0A]
        let link = ScriptedLink(reply: [bad, Array(Self.zq630[38...])])
        #expect(throws: PairingError.malformedStatus(.wrongFieldCount(line: 1, expected: 12, found: 11))) {
            try PrinterConversation(link: link).hostStatus()
        }
        #expect(link.pieces.count == 1)   // stopped at the bad line, did not wait for more
        // Garbage where STX should be.
        let garbage = ScriptedLink(reply: [Array("HELLO".utf8)])
        #expect(throws: PairingError.malformedStatus(.missingSTX(line: 1, found: 0x48))) {
            try PrinterConversation(link: garbage).hostStatus()
        }
    }

    @Test func getvarSendsTheExactCommandAndReturnsTheUnquotedValue() throws {
        let link = ScriptedLink(reply: [Array("\"bo".utf8), Array("th\"\r\n".utf8), Array("x".utf8)])
        let value = try PrinterConversation(link: link).getVariable("bluetooth.le.controller_mode")
        #expect(value == "both")
        #expect(link.sent == [Array("! U1 getvar \"bluetooth.le.controller_mode\"\r\n".utf8)])
        #expect(link.pieces == [Array("x".utf8)])
    }

    @Test func anUnknownSettingAndAMalformedReplyAreTypedErrors() {
        let unknown = ScriptedLink(reply: [Array("\"?\"".utf8)])
        #expect(throws: PairingError.sgdReply(name: "no.such", .unknownSetting)) {
            try PrinterConversation(link: unknown).getVariable("no.such")
        }
        let malformed = ScriptedLink(reply: [Array("both".utf8)])
        #expect(throws: PairingError.sgdReply(name: "x", .malformedReply)) {
            try PrinterConversation(link: malformed).getVariable("x")
        }
        let control = ScriptedLink(reply: [Array("\"a\u{1B}[2Jb\"".utf8)])
        #expect(throws: PairingError.sgdReply(name: "x", .invalidReplyValue)) {
            try PrinterConversation(link: control).getVariable("x")
        }
        let silent = ScriptedLink(reply: [Array("\"half".utf8)])
        #expect(throws: PairingError.replyTimeout(received: 5)) {
            try PrinterConversation(link: silent).getVariable("x")
        }
    }

    @Test func hostileNamesAndValuesAreRefusedBeforeAnythingIsSent() {
        let link = ScriptedLink()
        let conversation = PrinterConversation(link: link)
        #expect(throws: PairingError.invalidPrinterCommand(.invalidName("a\" \"b"))) {
            try conversation.getVariable("a\" \"b")
        }
        let injection = "v\r\n! U1 setvar \"device.reset\" \"\""
        #expect(throws: PairingError.invalidPrinterCommand(.invalidValue(injection))) {
            try conversation.setVariable("x", to: injection)
        }
        #expect(throws: PairingError.invalidPrinterCommand(.invalidName(""))) {
            try conversation.setVariable("", to: "v")
        }
        #expect(link.sent.isEmpty)
        #expect(throws: PairingError.invalidPrinterCommand(.invalidValue(injection))) {
            try PrinterRequest.setVariable(name: "x", value: injection).validate()
        }
        #expect(throws: Never.self) { try PrinterRequest.setVariable(name: "media.type", value: "journal").validate() }
        #expect(throws: Never.self) { try PrinterRequest.hostStatus.validate() }
    }

    @Test func performRunsEachRequestWithItsExactBytes() throws {
        let link = ScriptedLink(reply: [Array("\"le\"".utf8), Self.zq630])
        let conversation = PrinterConversation(link: link)
        let requests: [PrinterRequest] = [
            .setVariable(name: "bluetooth.le.controller_mode", value: "le"),
            .getVariable(name: "bluetooth.le.controller_mode"),
            .hostStatus,
            .testLabel,
        ]
        let replies = try requests.map { try conversation.perform($0) }
        #expect(replies[0] == .variableSet(name: "bluetooth.le.controller_mode", value: "le"))
        #expect(replies[1] == .variable(name: "bluetooth.le.controller_mode", value: "le"))
        #expect(replies[2] == .status(try PrinterStatus(parsing: Self.zq630)))
        #expect(replies[3] == .labelSent)
        #expect(link.sent == [
            Array("! U1 setvar \"bluetooth.le.controller_mode\" \"le\"\r\n".utf8),
            Array("! U1 getvar \"bluetooth.le.controller_mode\"\r\n".utf8),
            Array("~HS".utf8),
            Array("~hi^XA^FO20,20^BY3^B3N,N,150,Y,N^FDHello World!^FS^XZ\r\n".utf8),
        ])
    }

    @Test func messagesSayWhatWentWrong() {
        #expect(PairingError.sgdReply(name: "no.such", .unknownSetting).description
                == "the printer does not know the setting \"no.such\": check its name in the printer's SGD manual")
        #expect(PairingError.malformedStatus(.truncated(line: 2)).description
                == "the printer's host status reply is unusable (~HS reply ends inside line 2): is it a Zebra ZPL printer? try again")
        #expect(PairingError.invalidPrinterCommand(.invalidName("a\"b")).description.hasPrefix("cannot send this to the printer: SGD name \"a\\\"b\" is not allowed"))
    }
}
