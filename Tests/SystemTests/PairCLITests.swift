import Foundation
import NDEF
import TagEmulation
import Testing

/// `nfctap pair` end to end: a virtual printer tag on the real pcscd (through vpcd), the CLI run
/// as a user would, and python3-dbusmock's bluez5 template (plus the Zebra fixture) as BlueZ.
/// Inside `BlueZSystemTests` (serialized: each test runs its own mock, and every test here
/// also uses the same vpcd reader).
extension BlueZSystemTests {
    @Suite(.enabled(if: SystemEnvironment.available("pcscd")))
    struct PairCLITests {
        static let reader = TagOnPCSCD.reader
        static let prompt = "Hold the printer's NFC tag (the Print Touch logo) near \(TagOnPCSCD.reader)…"
        static let zq320Device = "/org/bluez/hci0/dev_CC_78_AB_3E_BA_E0"
        static let zd410URL = "http://www.zebra.com/apps/r/nfc?mE=00074d6c9e65&mW=000000000000&mBL=5cf8218dc99b&c=ZD41H23-D0PE00EZ&s=50J163001771&v=0"
        static let zd410Device = "/org/bluez/hci0/dev_5C_F8_21_8D_C9_9B"
        static let zq320Printer = #"{"serial":"XXZFJ170700336","model":"ZQ320-A0E02T0-00","bluetooth":"CC:78:AB:3E:BA:E0","bluetoothLE":null,"wifi":null,"ethernet":null,"version":"0"}"#
        /// IdentityJSON of the ZQ320 tag: what `--handler json` prints and `exec:` gets on stdin.
        static let zq320IdentityLine = #"{"bluetooth":"CC:78:AB:3E:BA:E0","bluetoothLE":null,"ethernet":null,"model":"ZQ320-A0E02T0-00","other":[],"serial":"XXZFJ170700336","version":"0","wifi":null}"#
        /// The ZQ630 Plus `~HS` reply (docs/zebra.md §3): paper out, tear-off.
        static let hostStatus: [UInt8] =
            [0x02] + Array("159,1,0,0249,000,0,0,0,000,0,0,0".utf8) + [0x03, 0x0D, 0x0A] +
            [0x02] + Array("000,0,0,0,0,2,6,0,00000000,1,000".utf8) + [0x03, 0x0D, 0x0A] +
            [0x02] + Array("0000,0".utf8) + [0x03, 0x0D, 0x0A]

        func pair(_ args: [String], bus: BlueZMock? = nil, environment: [String: String] = [:]) throws -> CLIResult {
            var env = environment
            if let bus { env["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address }
            return try runCLI(["pair", "--reader", Self.reader] + args, environment: env)
        }

        func classicPrinter() throws -> BlueZMock {
            let mock = try BlueZMock()
            try mock.addAdapter()
            try mock.addDevice("CC:78:AB:3E:BA:E0", name: "XXZFJ170700336")
            return mock
        }

        @Test func aClassicPrinterTapIsPairedAndTrusted() throws {
            let mock = try classicPrinter()
            let tag = try TagOnPCSCD(VirtualType2Tag.zebraZQ320())
            let r = try pair(["--handler", "bluez", "--timeout", "20", "--json"], bus: mock)
            withExtendedLifetime(tag) {}
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout == #"{"schemaVersion":1,"printer":"# + Self.zq320Printer + #","handler":"bluez","result":{"outcome":"paired","address":"CC:78:AB:3E:BA:E0","transport":"classic","adapter":"hci0","device":"/org/bluez/hci0/dev_CC_78_AB_3E_BA_E0","discovered":false,"trusted":true,"connected":true,"deviceInformation":null}}"# + "\n")
            #expect(try mock.property(Self.zq320Device, "org.bluez.Device1", "Paired") == .bool(true))
            #expect(try mock.property(Self.zq320Device, "org.bluez.Device1", "Trusted") == .bool(true))
            #expect(try mock.calls(Self.zq320Device, "Pair").count == 1)
            #expect(r.stderr.hasPrefix(Self.prompt + "\n"))
            #expect(r.stderr.contains("Zebra printer: serial XXZFJ170700336, model ZQ320-A0E02T0-00\n"))
            #expect(r.stderr.contains("Paired printer XXZFJ170700336 at CC:78:AB:3E:BA:E0 over Bluetooth Classic on hci0 (trusted, connected)\n"))
        }

        @Test func anLEPrinterIsPairedAndItsStatusShown() throws {
            let mock = try BlueZMock()
            try mock.addAdapter()
            try mock.mock("AddZebraLEPrinter", [.string("hci0"), .string("5C:F8:21:8D:C9:9B"), .string("50J163001771"), .uint16(23)])
            let pieces = [Array(Self.hostStatus[0..<20]), Array(Self.hostStatus[20..<61]), Array(Self.hostStatus[61...])]
            try mock.mock("QueueReply", [.string("5C:F8:21:8D:C9:9B"), .array(elementType: "ay", pieces.map { .bytes($0) })])
            let tag = try TagOnPCSCD(try TagOnPCSCD.uriTag(Self.zd410URL))
            let r = try pair(["--status", "--json", "--timeout", "20"], bus: mock)
            withExtendedLifetime(tag) {}
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains(#","result":{"outcome":"paired","address":"5C:F8:21:8D:C9:9B","transport":"le","adapter":"hci0","device":"/org/bluez/hci0/dev_5C_F8_21_8D_C9_9B","discovered":false,"trusted":true,"connected":true,"deviceInformation":{"model":"ZD410-203dpi ZPL","serial":"50J163001771","firmware":"V84.20.18Z","hardware":null,"software":null,"manufacturer":"Zebra Technologies"}},"#))
            #expect(r.stdout.hasSuffix(#","status":{"ready":false,"problems":["paper out"],"paperOut":true,"paused":false,"headUp":false,"ribbonOut":false,"underTemperature":false,"overTemperature":false,"printMode":"tear-off","thermalTransfer":false,"labelLengthDots":249,"labelsRemaining":0,"labelWaiting":false,"formatsInBuffer":0,"bufferFull":false,"partialFormat":false,"corruptRAM":false,"graphicImagesStored":0}}"# + "\n"))
            #expect(r.stderr.contains("Printer status: paper out\n  print mode tear-off, direct thermal, label length 249 dots\n"))
            #expect(try mock.property(Self.zd410Device, "org.bluez.Device1", "Paired") == .bool(true))
            #expect(try mock.property(Self.zd410Device, "org.bluez.Device1", "Trusted") == .bool(true))
            let writes = try mock.calls(Self.zd410Device + "/service0028/char002b", "WriteValue")
            #expect(writes.map { $0.first?.byteArray ?? [] } == [Array("~HS".utf8)])
        }

        @Test func anLEPrinterAnswersGetvar() throws {
            let mock = try BlueZMock()
            try mock.addAdapter()
            try mock.mock("AddZebraLEPrinter", [.string("hci0"), .string("5C:F8:21:8D:C9:9B"), .string("50J163001771"), .uint16(23)])
            try mock.mock("QueueReply", [.string("5C:F8:21:8D:C9:9B"), .array(elementType: "ay", [.bytes(Array("\"bo".utf8)), .bytes(Array("th\"\r\n".utf8))])])
            let tag = try TagOnPCSCD(try TagOnPCSCD.uriTag(Self.zd410URL))
            let r = try pair(["--getvar", "bluetooth.le.controller_mode", "--json", "--timeout", "20"], bus: mock)
            withExtendedLifetime(tag) {}
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.hasSuffix(#","variables":{"bluetooth.le.controller_mode":"both"}}"# + "\n"))
            #expect(r.stderr.contains("bluetooth.le.controller_mode = \"both\"\n"))
            let writes = try mock.calls(Self.zd410Device + "/service0028/char002b", "WriteValue")
            let command = Array("! U1 getvar \"bluetooth.le.controller_mode\"\r\n".utf8)
            try #require(command.count == 44)
            // MTU 23: written in 20-byte pieces.
            #expect(writes.map { $0.first?.byteArray ?? [] } == [Array(command[0..<20]), Array(command[20..<40]), Array(command[40...])])
        }

        @Test func aRefusedPairingExits1WithBlueZsReasonAndAdvice() throws {
            let mock = try classicPrinter()
            try mock.mock("FailPairing", [.string("hci0"), .string("CC:78:AB:3E:BA:E0"), .string("org.bluez.Error.AuthenticationFailed"), .string("refused by test")])
            let tag = try TagOnPCSCD(VirtualType2Tag.zebraZQ320())
            let r = try pair(["--json", "--timeout", "20"], bus: mock)
            withExtendedLifetime(tag) {}
            let message = "Pair CC:78:AB:3E:BA:E0: the printer refused the pairing keys (org.bluez.Error.AuthenticationFailed: refused by test); remove the old pairing on both sides (`bluetoothctl remove CC:78:AB:3E:BA:E0`; on the printer, reset its Bluetooth settings) and try again; if bluetooth.authentication is on, pass its PIN"
            #expect(r.status == 1)
            #expect(r.stderr.hasSuffix("nfctap: error: \(message)\n"))
            #expect(r.stdout == #"{"schemaVersion":1,"printer":"# + Self.zq320Printer + #","handler":"bluez","error":"# + "\"\(message)\"}\n")
            #expect(try mock.property(Self.zq320Device, "org.bluez.Device1", "Trusted") == .bool(false))
        }

        @Test func execReceivesTheIdentityVerbatim() throws {
            let recorder = try ExecRecorder()
            let tag = try TagOnPCSCD(VirtualType2Tag.zebraZQ320())
            let r = try pair(["--handler", "exec:\(recorder.program) --printer 'a b'", "--timeout", "20"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(try recorder.read() == ExecRecorder.Record(
                argv: ["--printer", "a b"],
                env: ["NFCTAP_SERIAL": "XXZFJ170700336", "NFCTAP_MODEL": "ZQ320-A0E02T0-00",
                      "NFCTAP_BT_MAC": "CC:78:AB:3E:BA:E0", "NFCTAP_VERSION": "0"],
                stdin: Self.zq320IdentityLine + "\n"))
            #expect(r.stderr.contains("\(recorder.program) handled printer XXZFJ170700336 (exit status 0)\n"))

            // The program's failure is the command's: exit 1, its status in the message.
            let failing = try pair(["--handler", "exec:\(recorder.program)", "--timeout", "20"], environment: ["RECORDER_EXIT": "3"])
            withExtendedLifetime(tag) {}
            #expect(failing.status == 1)
            #expect(failing.stderr.hasSuffix("nfctap: error: \(recorder.program) exited with status 3\n"))
        }

        @Test func theJSONHandlerPrintsTheIdentityLine() throws {
            let tag = try TagOnPCSCD(VirtualType2Tag.zebraZQ320())
            let r = try pair(["--handler", "json", "--timeout", "20"])
            withExtendedLifetime(tag) {}
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout == Self.zq320IdentityLine + "\n")
        }

        @Test func aTagThatIsNotAPrintersIsNamedThenTheWaitTimesOut() throws {
            let tag = try TagOnPCSCD(try TagOnPCSCD.uriTag("https://example.com/menu"))
            let r = try pair(["--handler", "json", "--timeout", "2"])
            withExtendedLifetime(tag) {}
            #expect(r.status == 2)
            #expect(r.stdout.isEmpty)
            #expect(r.stderr == Self.prompt + "\n"
                    + "not a Zebra printer tag: it holds https://example.com/menu; tap the printer's Print Touch logo\n"
                    + "nfctap: error: no printer tag was tapped within 2 s\n")
        }

        @Test func aZebraTagWithABrokenQueryExits1SayingWhy() throws {
            let tag = try TagOnPCSCD(try TagOnPCSCD.uriTag("http://www.zebra.com/apps/r/nfc?mB=cc78ab3ebae&s=XXZFJ170700336"))
            let r = try pair(["--handler", "json", "--timeout", "20"])
            withExtendedLifetime(tag) {}
            #expect(r.status == 1)
            #expect(r.stdout.isEmpty)
            #expect(r.stderr.hasSuffix("nfctap: error: this is a Zebra printer tag, but it cannot be used: mB=\"cc78ab3ebae\" is not a MAC address (12 hex digits)\n"))
        }

        @Test func aDryRunPairsNothing() throws {
            let mock = try classicPrinter()
            let tag = try TagOnPCSCD(VirtualType2Tag.zebraZQ320())
            let r = try pair(["--dry-run", "--status", "--timeout", "20"], bus: mock)
            withExtendedLifetime(tag) {}
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout == "would pair printer XXZFJ170700336 over Bluetooth Classic at CC:78:AB:3E:BA:E0 using the first Bluetooth adapter (discovering it for up to 15 s if BlueZ does not know it), then trust it and connect; then it would read the host status (~HS)\n")
            #expect(try mock.calls(Self.zq320Device, "Pair").isEmpty)
            #expect(try mock.calls(Self.zq320Device, "Connect").isEmpty)
            #expect(try mock.property(Self.zq320Device, "org.bluez.Device1", "Paired") == .bool(false))
            #expect(try mock.property(Self.zq320Device, "org.bluez.Device1", "Trusted") == .bool(false))
        }

        @Test func noMatchingReaderExits3() throws {
            try TestPCSCD.control("start")
            let r = try runCLI(["pair", "--reader", "no such reader", "--handler", "json", "--timeout", "5"])
            #expect(r.status == 3)
            #expect(r.stderr.hasPrefix("nfctap: error: no reader matches \"no such reader\" (attached: "))
        }

        @Test func conversationOptionsNeedTheBlueZHandlerAndSafeSGD() throws {
            let wrongHandler = try runCLI(["pair", "--handler", "json", "--status"])
            #expect(wrongHandler.status == 64)
            #expect(wrongHandler.stderr.contains("--setvar, --getvar, --status and --test-label need --handler bluez"))
            let injection = try runCLI(["pair", "--setvar", "x=v\"\r\n! U1 setvar \"device.reset\" \"\""])
            #expect(injection.status == 64)
            #expect(injection.stderr.contains("cannot send this to the printer: SGD value"))
            let badExec = try runCLI(["pair", "--handler", "exec:'unterminated"])
            #expect(badExec.status == 64)
            #expect(badExec.stderr.contains("--exec: unterminated ' in the command line"))
        }
    }
}
