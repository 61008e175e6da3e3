import Testing
import NDEF
@testable import ZebraPrinter

@Suite("~HS host status: fields")
struct HostStatusTests {
    @Test func zq630PlusVector() throws {
        #expect(zq630Reply.count == 82)
        #expect(Array(zq630Reply[0..<4]) == [0x02, 0x31, 0x35, 0x39])       // STX "159"
        #expect(Array(zq630Reply[33..<37]) == [0x03, 0x0D, 0x0A, 0x02])     // ETX CR LF STX
        let s = try PrinterStatus(parsing: zq630Reply)
        #expect(s.communicationSettings == 159)
        #expect(s.paperOut == true)
        #expect(s.paused == false)
        #expect(s.labelLengthDots == 249)
        #expect(s.formatsInBuffer == 0)
        #expect(s.bufferFull == false)
        #expect(s.commDiagnosticsMode == false)
        #expect(s.partialFormat == false)
        #expect(s.corruptRAM == false)
        #expect(s.underTemperature == false)
        #expect(s.overTemperature == false)
        #expect(s.functionSettings == 0)
        #expect(s.headUp == false)
        #expect(s.ribbonOut == false)
        #expect(s.thermalTransferMode == false)
        #expect(s.printMode == .tearOff)
        #expect(s.printWidthMode == 6)
        #expect(s.labelWaiting == false)
        #expect(s.labelsRemaining == 0)
        #expect(s.formatWhilePrinting == true)
        #expect(s.graphicImagesStored == 0)
        #expect(s.password == "0000")
        #expect(s.staticRAMInstalled == false)
        #expect(s.readyToPrint == false)
        #expect(s.problems == ["paper out"])
        #expect(s.summary == "paper out")
    }

    @Test func readyPrinter() throws {
        let s = try PrinterStatus(parsing: readyReply)
        #expect(s.readyToPrint)
        #expect(s.summary == "ready")
        #expect(s.problems.isEmpty)
        #expect(s.communicationSettings == 30)
        #expect(s.labelLengthDots == 1245)
        #expect(s.functionSettings == 1)
        #expect(s.thermalTransferMode == true)
        #expect(s.password == "1234")
    }

    @Test func numbersAtTheirWidestAndNarrowest() throws {
        let s = try PrinterStatus(parsing: hostStatusReply("999,0,0,9999,999,0,0,0,999,0,0,0",
                                                           "999,9,0,0,0,2,9,0,99999999,1,999", "9999,1"))
        #expect(s.communicationSettings == 999)
        #expect(s.labelLengthDots == 9999)
        #expect(s.formatsInBuffer == 999)
        #expect(s.functionSettings == 999)
        #expect(s.printWidthMode == 9)
        #expect(s.labelsRemaining == 99_999_999)
        #expect(s.graphicImagesStored == 999)
        #expect(s.password == "9999")
        #expect(s.staticRAMInstalled == true)
        // Fewer digits than the guide's width still read as the same number.
        let short = try PrinterStatus(parsing: hostStatusReply("1,0,0,12,3,0,0,0,0,0,0,0", "4,0,0,0,0,2,6,0,5,1,6", "7,0"))
        #expect([short.communicationSettings, short.labelLengthDots, short.formatsInBuffer, short.functionSettings,
                 short.labelsRemaining, short.graphicImagesStored] == [1, 12, 3, 4, 5, 6])
        #expect(short.password == "7")
    }

    /// Each flag set alone changes exactly its own field, and readiness only for the six
    /// conditions of docs/zebra.md §3.
    @Test func eachFlagMapsToItsField() throws {
        let base = try PrinterStatus(parsing: readyReply)
        let flags: [(line: Int, index: Int, path: WritableKeyPath<PrinterStatus, Bool>, problem: String?)] = [
            (0, 1, \.paperOut, "paper out"),
            (0, 2, \.paused, "paused"),
            (0, 5, \.bufferFull, nil),
            (0, 6, \.commDiagnosticsMode, nil),
            (0, 7, \.partialFormat, nil),
            (0, 9, \.corruptRAM, nil),
            (0, 10, \.underTemperature, "head too cold"),
            (0, 11, \.overTemperature, "head too hot"),
            (1, 2, \.headUp, "head open"),
            (1, 3, \.ribbonOut, "ribbon out"),
            (1, 7, \.labelWaiting, nil),
            (1, 9, \.formatWhilePrinting, nil),
            (2, 1, \.staticRAMInstalled, nil),
        ]
        // thermalTransferMode is set in the ready reply: clearing it is the toggle.
        for (line, index, path, problem) in flags {
            var lines = readyLines.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            #expect(lines[line][index] == (base[keyPath: path] ? "1" : "0"))
            lines[line][index] = base[keyPath: path] ? "0" : "1"
            let reply = hostStatusReply(lines[0].joined(separator: ","), lines[1].joined(separator: ","),
                                        lines[2].joined(separator: ","))
            var expected = base
            expected[keyPath: path].toggle()
            let parsed = try PrinterStatus(parsing: reply)
            #expect(parsed == expected, "line \(line + 1) field \(index + 1)")
            #expect(parsed.readyToPrint == (problem == nil))
            #expect(parsed.summary == (problem ?? "ready"))
        }
        var lines = readyLines
        lines[1] = "001,0,0,0,0,2,6,0,00000000,1,000"
        var expected = base
        expected.thermalTransferMode = false
        #expect(try PrinterStatus(parsing: hostStatusReply(lines[0], lines[1], lines[2])) == expected)
    }

    @Test func severalProblemsInOrder() throws {
        let s = try PrinterStatus(parsing: hostStatusReply("030,1,1,1245,000,0,0,0,000,0,1,1",
                                                           "001,0,1,1,1,2,6,0,00000000,1,000", "1234,0"))
        #expect(s.problems == ["paper out", "paused", "head open", "ribbon out", "head too hot", "head too cold"])
        #expect(s.summary == "paper out, paused, head open, ribbon out, head too hot, head too cold")
    }

    static let modes: [(Character, PrintMode)] = [
        ("0", .rewind), ("1", .peelOff), ("2", .tearOff), ("3", .cutter), ("4", .applicator),
        ("5", .delayedCut), ("6", .linerlessPeel), ("7", .linerlessRewind), ("8", .partialCutter),
        ("9", .rfid), ("K", .kiosk),
    ]

    @Test func everyPrintMode() throws {
        #expect(Self.modes.map(\.1) == PrintMode.known)
        for (code, mode) in Self.modes {
            let s = try PrinterStatus(parsing: hostStatusReply(readyLines[0], "001,0,0,0,1,\(code),6,0,00000000,1,000", readyLines[2]))
            #expect(s.printMode == mode)
            #expect(mode.code == code)
            #expect(PrintMode(code: code) == mode)
        }
        for code: Character in ["A", "k", "Z"] {
            let s = try PrinterStatus(parsing: hostStatusReply(readyLines[0], "001,0,0,0,1,\(code),6,0,00000000,1,000", readyLines[2]))
            #expect(s.printMode == .unknown(code))
            #expect(s.printMode.code == code)
        }
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        let lines: [String]
        let error: HostStatusError
        var testDescription: String { lines.joined(separator: " | ") }
    }

    static let l1 = "159,1,0,0249,000,0,0,0,000,0,0,0"
    static let l2 = "000,0,0,0,0,2,6,0,00000000,1,000"
    static let l3 = "0000,0"

    static let badFields: [Bad] = [
        Bad(lines: ["159,1,0,0249,000,0,0,0,000,0,0", l2, l3], error: .wrongFieldCount(line: 1, expected: 12, found: 11)),
        Bad(lines: [l1 + ",0", l2, l3], error: .wrongFieldCount(line: 1, expected: 12, found: 13)),
        Bad(lines: ["", l2, l3], error: .wrongFieldCount(line: 1, expected: 12, found: 1)),
        Bad(lines: [l1, l2 + ",0", l3], error: .wrongFieldCount(line: 2, expected: 11, found: 12)),
        Bad(lines: [l1, l2, "0000"], error: .wrongFieldCount(line: 3, expected: 2, found: 1)),
        Bad(lines: [l1, l2, "0000,0,0"], error: .wrongFieldCount(line: 3, expected: 2, found: 3)),
        Bad(lines: ["159,1,0,02a9,000,0,0,0,000,0,0,0", l2, l3],
            error: .invalidField(line: 1, field: .labelLength, value: "02a9", reason: .notDigits)),
        Bad(lines: ["159,1,0,-249,000,0,0,0,000,0,0,0", l2, l3],
            error: .invalidField(line: 1, field: .labelLength, value: "-249", reason: .notDigits)),
        Bad(lines: ["159,1,0, 249,000,0,0,0,000,0,0,0", l2, l3],
            error: .invalidField(line: 1, field: .labelLength, value: " 249", reason: .notDigits)),
        Bad(lines: ["159,1,0,00249,000,0,0,0,000,0,0,0", l2, l3],
            error: .invalidField(line: 1, field: .labelLength, value: "00249", reason: .tooLong(width: 4))),
        Bad(lines: ["1590,1,0,0249,000,0,0,0,000,0,0,0", l2, l3],
            error: .invalidField(line: 1, field: .communicationSettings, value: "1590", reason: .tooLong(width: 3))),
        Bad(lines: ["159,,0,0249,000,0,0,0,000,0,0,0", l2, l3],
            error: .invalidField(line: 1, field: .paperOut, value: "", reason: .empty)),
        Bad(lines: ["159,2,0,0249,000,0,0,0,000,0,0,0", l2, l3],
            error: .invalidField(line: 1, field: .paperOut, value: "2", reason: .notFlag)),
        Bad(lines: ["159,1,0,0249,000,0,0,0,000,0,0,Y", l2, l3],
            error: .invalidField(line: 1, field: .overTemperature, value: "Y", reason: .notFlag)),
        Bad(lines: ["159,1,0,0249,000,0,0,0,000,0,0,00", l2, l3],
            error: .invalidField(line: 1, field: .overTemperature, value: "00", reason: .tooLong(width: 1))),
        Bad(lines: [l1, "000,0,0,0,0,2,6,0,000000000,1,000", l3],
            error: .invalidField(line: 2, field: .labelsRemaining, value: "000000000", reason: .tooLong(width: 8))),
        Bad(lines: [l1, "000,0,0,0,0,-,6,0,00000000,1,000", l3],
            error: .invalidField(line: 2, field: .printMode, value: "-", reason: .notPrintMode)),
        Bad(lines: [l1, "000,0,0,0,0,22,6,0,00000000,1,000", l3],
            error: .invalidField(line: 2, field: .printMode, value: "22", reason: .tooLong(width: 1))),
        Bad(lines: [l1, "000,0,0,0,0,,6,0,00000000,1,000", l3],
            error: .invalidField(line: 2, field: .printMode, value: "", reason: .empty)),
        Bad(lines: [l1, "000,0,1,0,0,2,6,0,00000000,1,0x0", l3],
            error: .invalidField(line: 2, field: .graphicImagesStored, value: "0x0", reason: .notDigits)),
        Bad(lines: [l1, l2, "00000,0"],
            error: .invalidField(line: 3, field: .password, value: "00000", reason: .tooLong(width: 4))),
        Bad(lines: [l1, l2, "0000,"],
            error: .invalidField(line: 3, field: .staticRAMInstalled, value: "", reason: .empty)),
    ]

    @Test(arguments: badFields)
    func malformedField(_ bad: Bad) {
        let bytes = hostStatusReply(bad.lines[0], bad.lines[1], bad.lines[2])
        #expect(throws: bad.error) { try PrinterStatus(parsing: bytes) }
        var parser = HostStatusParser()
        #expect(throws: bad.error) { try parser.feed(bytes) }
        #expect(HostStatusReply.isComplete(bytes))
    }

    @Test func framingErrors() {
        let body = Array(Self.l1.utf8)
        #expect(throws: HostStatusError.missingSTX(line: 1, found: 0x31)) { try PrinterStatus(parsing: body) }
        #expect(throws: HostStatusError.missingSTX(line: 1, found: 0x20)) { try PrinterStatus(parsing: [0x20] + zq630Reply) }
        // Line 2 without its STX.
        var noSTX2 = zq630Reply
        noSTX2.remove(at: 36)
        #expect(throws: HostStatusError.missingSTX(line: 2, found: 0x30)) { try PrinterStatus(parsing: noSTX2) }
        // Line 1 without its ETX: CR comes first.
        var noETX1 = zq630Reply
        noETX1.remove(at: 33)
        #expect(throws: HostStatusError.missingETX(line: 1, found: 0x0D)) { try PrinterStatus(parsing: noETX1) }
        // Line 3 without its ETX and without CR LF: the reply just stops.
        #expect(throws: HostStatusError.truncated(line: 3)) { try PrinterStatus(parsing: Array(zq630Reply[0..<79])) }
        // Two STX in a row.
        #expect(throws: HostStatusError.missingETX(line: 1, found: 0x02)) { try PrinterStatus(parsing: [0x02, 0x31, 0x02]) }
        // A stray ETX outside a frame.
        #expect(throws: HostStatusError.missingSTX(line: 1, found: 0x03)) { try PrinterStatus(parsing: [0x03]) }
        // Bytes that are not printable ASCII inside a frame.
        for b: UInt8 in [0x00, 0x09, 0x1B, 0x7F, 0x80, 0xFF] {
            var bad = zq630Reply
            bad[40] = b
            #expect(throws: HostStatusError.invalidByte(line: 2, byte: b)) { try PrinterStatus(parsing: bad) }
        }
        #expect(throws: HostStatusError.trailingBytes(count: 1)) { try PrinterStatus(parsing: zq630Reply + [0x58]) }
        #expect(throws: HostStatusError.trailingBytes(count: 3)) { try PrinterStatus(parsing: zq630Reply + [0x02, 0x31, 0x03]) }
        #expect(throws: HostStatusError.truncated(line: 1)) { try PrinterStatus(parsing: []) }
        #expect(throws: HostStatusError.truncated(line: 1)) { try PrinterStatus(parsing: [0x0D, 0x0A]) }
    }

    @Test func crlfAroundFramesIsOptional() throws {
        let expected = try PrinterStatus(parsing: zq630Reply)
        let bare: [UInt8] = [Self.l1, Self.l2, Self.l3].flatMap { [0x02] + Array($0.utf8) + [0x03] as [UInt8] }
        #expect(try PrinterStatus(parsing: bare) == expected)
        #expect(try PrinterStatus(parsing: [0x0D, 0x0A, 0x0A] + zq630Reply + [0x0D, 0x0A]) == expected)
        let lfOnly: [UInt8] = [Self.l1, Self.l2, Self.l3].flatMap { [0x02] + Array($0.utf8) + [0x03, 0x0A] as [UInt8] }
        #expect(try PrinterStatus(parsing: lfOnly) == expected)
    }

    @Test func overLongReplyIsRejected() throws {
        let long: [UInt8] = [0x02] + [UInt8](repeating: 0x30, count: 300)
        #expect(throws: HostStatusError.replyTooLong(limit: 256)) { try PrinterStatus(parsing: long) }
        // Exactly at the limit without ETX is still only incomplete.
        var parser = HostStatusParser()
        #expect(try parser.feed([0x02] + [UInt8](repeating: 0x30, count: 255)) == nil)
        #expect(throws: HostStatusError.replyTooLong(limit: 256)) { try parser.feed([0x30]) }
    }

    @Test func errorsDescribeLineAndField() {
        #expect(HostStatusError.invalidField(line: 1, field: .labelLength, value: "02a9", reason: .notDigits).description
                == "~HS line 1, labelLength \"02a9\" is not a number")
        #expect(HostStatusError.wrongFieldCount(line: 2, expected: 11, found: 12).description
                == "~HS line 2: 12 fields, expected 11")
        #expect(HostStatusError.missingSTX(line: 1, found: 0x31).description == "~HS line 1: expected STX, found 0x31")
    }
}
