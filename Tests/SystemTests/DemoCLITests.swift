import Foundation
import NFCTapKitTestSupport
import Testing

/// `nfctap demo` run as a user runs it: no reader, no daemon.
@Suite("nfctap demo")
struct DemoCLITests {
    static let reader = "nfctap Virtual Reader (ACR122U)"

    @Test("--json: one scan-style object per tag, with the URL, text, Zebra serial and written URL byte-exact")
    func json() throws {
        let r = try runCLI(["demo", "--json"], timeout: 30)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let lines = try parseJSONLines(r.stdout)
        try #require(lines.count == 6, "stdout: \(r.stdout)")
        #expect(lines.map { $0["demoStep"] as? String } == ["url", "text", "zebra", "classic", "iso15693", "written"])
        #expect(lines.allSatisfy { $0["reader"] as? String == ($0["demoStep"] as? String == "iso15693" ? "nfctap Virtual Reader (OMNIKEY 5022)" : Self.reader) })

        func firstRecord(_ line: [String: Any]) throws -> [String: Any] {
            try #require((line["records"] as? [[String: Any]])?.first)
        }
        let url = try firstRecord(lines[0])
        #expect(url["uri"] as? String == "https://nfctap.dev/demo")
        // 04 = "https://", then "nfctap.dev/demo".
        #expect(url["payload"] as? String == "04" + Array("nfctap.dev/demo".utf8).map { String(format: "%02X", $0) }.joined())
        #expect(lines[0]["uid"] as? String == "04A1B2C3D4E580")
        #expect(lines[0]["product"] as? String == "NTAG213")

        let text = try firstRecord(lines[1])
        #expect(text["text"] as? String == "Hello from nfctap")
        #expect(text["language"] as? String == "en")
        #expect(lines[1]["type"] as? String == "type4")

        let zebra = try #require(lines[2]["zebra"] as? [String: Any])
        #expect(zebra["serial"] as? String == "XXZFJ170700336")
        #expect(zebra["model"] as? String == "ZQ320-A0E02T0-00")
        #expect(zebra["bluetooth"] as? String == "CC:78:AB:3E:BA:E0")
        let dryRun = try #require(lines[2]["pairDryRun"] as? String)
        #expect(dryRun.contains("XXZFJ170700336") && dryRun.contains("CC:78:AB:3E:BA:E0"))

        #expect(lines[3]["type"] as? String == "mifareClassic" && lines[3]["product"] as? String == "MIFARE Classic 1K")
        #expect(try firstRecord(lines[3])["uri"] as? String == "https://nfctap.dev/classic")
        #expect(lines[4]["type"] as? String == "type5" && lines[4]["product"] as? String == "ICODE SLIX2")
        #expect(try firstRecord(lines[4])["uri"] as? String == "https://nfctap.dev/iso15693")

        let written = try firstRecord(lines[5])
        #expect(written["uri"] as? String == "https://nfctap.dev/written")
        #expect(written["payload"] as? String == "04" + Array("nfctap.dev/written".utf8).map { String(format: "%02X", $0) }.joined())
        #expect(lines[5]["product"] as? String == "NTAG215")
        #expect(lines[5]["writable"] as? Bool == true)
    }

    @Test("human output: the tags on stdout as scan prints them, the narration naming the reader and steps on stderr")
    func human() throws {
        let r = try runCLI(["demo"], timeout: 30)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.contains("NTAG213 UID 04:A1:B2:C3:D4:E5:80 on \(Self.reader)"))
        #expect(r.stdout.contains("URI https://nfctap.dev/demo"))
        #expect(r.stdout.contains("Text [en] \"Hello from nfctap\""))
        #expect(r.stdout.contains("Zebra printer: serial XXZFJ170700336"))
        #expect(r.stdout.contains("URI https://nfctap.dev/written"))
        #expect(r.stderr.contains("Hold a tag near \(Self.reader)"))
        for step in ["[1/6] Placing an NTAG213 with https://nfctap.dev/demo", "[2/6]", "[3/6]", "[4/6]", "[5/6]", "[6/6]",
                     "queryNDEFStatus: read-write", "writeNDEF:", "Demo complete"] {
            #expect(r.stderr.contains(step), "missing \(step) in \(r.stderr)")
        }
        #expect(!r.stdout.contains("Placing"))
    }
}
