import Foundation
import NDEF
import NFCReaders
import ReaderCore
import NFCTags
import TagEmulation
import Testing

// Ring 3: `nfctap scan` as a user runs it, against the test pcscd + vpcd with the project's
// virtual tags. Nested in the serialized PC/SC suite: every test there shares the two vpcd
// readers, and some stop pcscd.
extension PCSCSystemTests {
    @Suite("nfctap scan through pcscd")
    struct ScanCLITests {
        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        static let uriRecord = ScanJSON.Record(tnf: 1, type: "U", payload: "046E66637461702E6465762F77", uri: ScanVectors.uri)

        // MARK: Every model

        @Test(arguments: TagModel.all)
        func scanReportsEveryModelFieldByField(_ model: TagModel) throws {
            let tag = try TagOnReader(model.make(ndef: ScanVectors.uriMessage))
            defer { tag.remove() }
            let result = try runCLI(["scan", "--json", "--timeout", "20", "--reader", "PCD 00 00"])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 2 && lines[1].isEmpty)  // one JSON object, one line
            let report = try ScanJSON.decode(String(lines[0]))
            #expect(report == ScanJSON(records: [Self.uriRecord], uid: model.uid.hexString, type: model.type,
                                       product: model.reportedProduct, productGuess: model.reportedGuess,
                                       capacity: model.capacity, writable: true,
                                       reader: ScanVectors.reader0))
        }

        @Test func emptyTagPrintsNoRecords() throws {
            let tag = try TagOnReader(VirtualType2Tag.blankNTAG215(uid: ScanVectors.uid(0x01)))
            defer { tag.remove() }
            let result = try runCLI(["scan", "--json", "--timeout", "20"])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try ScanJSON.decode(result.stdout)
            #expect(report == ScanJSON(records: [], uid: ScanVectors.uid(0x01).hexString, type: "type2", product: nil,
                                       productGuess: "NTAG215", capacity: 492, writable: true, reader: ScanVectors.reader0))
        }

        @Test func unformattedTagPrintsTheErrorAndExits0() throws {
            // A factory-fresh Ultralight EV1 has no CC: not NDEF formatted (Core NFC code 1).
            let tag = try TagOnReader(VirtualType2Tag(product: .ultralightEV1MF0UL21, uid: ScanVectors.uid(0x02)), reader: 1)
            defer { tag.remove() }
            let result = try runCLI(["scan", "--json", "--timeout", "20"])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try ScanJSON.decode(result.stdout)
            #expect(report.records == nil)
            #expect(report.errorCode == 1)
            #expect(report.error?.contains("not NDEF formatted") == true, "\(report.error ?? "")")
            #expect(report.uid == ScanVectors.uid(0x02).hexString)
            #expect(report.reader == ScanVectors.reader1)
        }

        @Test func humanOutputAndPromptOnStderr() throws {
            let tag = try TagOnReader(VirtualType4Tag(version: .v2, ndef: ScanVectors.textMessage, maxSize: 2048,
                                                      uid: [0x04, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22]))
            defer { tag.remove() }
            let result = try runCLI(["scan", "--timeout", "20"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == """
                Type 4 (mapping 2.0) UID 04:77:66:55:44:33:22 on Virtual PCD 00 00, 2046 bytes, writable
                  1: Text [sv] "hej"

                """)
            #expect(result.stderr.contains("Hold a tag near Virtual PCD 00 00 or Virtual PCD 00 01…"), "\(result.stderr)")
            // Not a terminal: no spinner, no colours.
            #expect(!result.stderr.contains("\u{1B}"))
            #expect(!result.stderr.contains("\r"))
        }

        // MARK: --multi

        @Test func multiPrintsOneLinePerTapUntilCtrlC() throws {
            let cli = try CLIProcess(["scan", "--multi", "--json", "--timeout", "0"])
            let a = try VirtualType2Tag(product: .ntag213, uid: ScanVectors.uid(0xA1), ndef: ScanVectors.uriMessage)
            let b = VirtualType4Tag(version: .v2, ndef: ScanVectors.textMessage, uid: [0x04, 0xB2, 0, 0, 0, 0, 1])

            var first: TagOnReader? = try TagOnReader(a, reader: 0)
            cli.waitForLines(1)
            // A stays on reader 0 while B is read on reader 1: A is not read again.
            var second: TagOnReader? = try TagOnReader(b, reader: 1)
            cli.waitForLines(2)
            first?.remove(); second?.remove()
            first = nil; second = nil
            try TestPCSCD.waitUntilReadersAreEmpty()
            // A comes back: a new presence, a new line.
            let again = try TagOnReader(a, reader: 0)
            defer { again.remove() }
            let lines = cli.waitForLines(3)
            cli.interrupt()
            let result = cli.finish()

            #expect(result.status == 0, "Ctrl-C is --multi's normal end: \(result.stderr)")
            #expect(lines.count == 3)
            let reports = try result.stdout.split(separator: "\n").map { try ScanJSON.decode(String($0)) }
            #expect(reports.map(\.uid) == [a.uid.hexString, b.uid.hexString, a.uid.hexString])
            #expect(reports.map(\.reader) == [ScanVectors.reader0, ScanVectors.reader1, ScanVectors.reader0])
            #expect(reports[0].records == [Self.uriRecord])
            #expect(reports[1].records?.first?.text == "hej")
        }

        @Test func multiEndsAtTheTimeoutWithExit0() throws {
            let tag = try TagOnReader(VirtualType2Tag.blankNTAG213(uid: ScanVectors.uid(0x03)))
            defer { tag.remove() }
            let result = try runCLI(["scan", "--multi", "--json", "--timeout", "4"])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.count == 1)  // the tag left on the reader is read once
            #expect(try ScanJSON.decode(String(lines[0])).records == [])
        }

        // MARK: Failures

        @Test func ctrlCEndsASingleScanWith130() throws {
            let cli = try CLIProcess(["scan", "--timeout", "0"])
            cli.waitForStderr("Hold a tag near")
            cli.interrupt()
            let result = cli.finish()
            #expect(result.status == 130)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("nfctap: error: interrupted"), "\(result.stderr)")
        }

        @Test func noTagBeforeTheTimeoutExits2() throws {
            let result = try runCLI(["scan", "--timeout", "1"])
            #expect(result.status == 2)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("no tag was presented within 1 s"), "\(result.stderr)")
        }

        @Test func unknownReaderExits3NamingTheAttachedReaders() throws {
            let result = try runCLI(["scan", "--reader", "nomatch", "--timeout", "5"])
            #expect(result.status == 3)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("no reader matches \"nomatch\""), "\(result.stderr)")
            #expect(result.stderr.contains("Virtual PCD 00 00, Virtual PCD 00 01"), "\(result.stderr)")
        }

        @Test func readerOptionNarrowsThePrompt() throws {
            let result = try runCLI(["scan", "--reader", "pcd 00 01", "--timeout", "1"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("Hold a tag near Virtual PCD 00 01…"), "\(result.stderr)")
        }

        @Test func withoutPcscdExits3WithTheFix() throws {
            defer { try? TestPCSCD.control("start") }
            try TestPCSCD.control("stop")
            for args in [["scan", "--timeout", "5"], ["scan", "--multi", "--json"],
                         ["write", "--uri", "https://x.y", "--timeout", "5"], ["apdu", "00A4040000", "--timeout", "5"]] {
                let result = try runCLI(args)
                #expect(result.status == 3, "\(args)")
                #expect(result.stdout.isEmpty)
                #expect(result.stderr.contains(PCSCBackend.serviceHint), "\(args): \(result.stderr)")
            }
        }

        // MARK: Terminals

        @Test func spinnerAndColoursOnlyOnATerminalAndNeverWithNO_COLOR() throws {
            let coloured = try runOnTerminal(["scan", "--timeout", "1"], environment: [:])
            #expect(coloured.contains("Hold a tag near"))
            #expect(coloured.contains("s left"), "countdown: \(coloured)")
            #expect(coloured.contains("\u{1B}[2m"), "dim spinner: \(coloured)")
            let plain = try runOnTerminal(["scan", "--timeout", "1"], environment: ["NO_COLOR": "1"])
            #expect(plain.contains("s left"), "the countdown stays: \(plain)")
            #expect(!plain.contains("\u{1B}[2m") && !plain.contains("\u{1B}[3"), "no colours: \(plain)")
        }

        /// Runs the CLI on a pseudo-terminal (util-linux `script`) and returns what it showed.
        private func runOnTerminal(_ args: [String], environment: [String: String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            let command = ([SystemEnvironment.cliPath] + args).map { "'\($0)'" }.joined(separator: " ")
            process.arguments = ["-qec", command, "/dev/null"]
            var env = ProcessInfo.processInfo.environment
            env["NO_COLOR"] = nil
            env["TERM"] = "xterm"
            for (k, v) in environment { env[k] = v }
            process.environment = env
            let out = Pipe()
            process.standardOutput = out
            process.standardError = out
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 2, "scan with no tag exits 2")
            return String(decoding: data, as: UTF8.self)
        }
    }
}
