import Foundation
import ReaderCore
import Testing

/// Issue 7 packaging: udev rules, the module blacklist and the kiosk unit are checked, not just shipped.
@Suite struct PackagingTests {
    static let root = SystemEnvironment.packageRoot

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The known-reader list, udev/known-readers.tsv: (vendor, product, drivers) per row.
    static func knownReaderRows() throws -> [(vendor: String, product: String, drivers: [String])] {
        try read("udev/known-readers.tsv").split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.map {
            let f = $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return (f[0], f[1], f[4].split(separator: ",").map(String.init))
        }
    }

    static var requiredReaders: Set<[String]> {
        Set(((try? knownReaderRows()) ?? []).map { [$0.vendor, $0.product] })
    }

    /// libnfc's USB device tables (libnfc 1.8: drivers/acr122_usb.c `acr122_usb_supported_devices`,
    /// drivers/pn53x_usb.c `pn53x_usb_supported_devices`).
    static let libnfcUSBDevices: Set<[String]> = [
        ["072f", "2200"], ["072f", "90cc"], ["04cc", "0531"], ["04cc", "2533"], ["04e6", "5591"],
        ["054c", "0193"], ["1fd3", "0608"], ["054c", "02e1"],
    ]

    @Test func knownReaderListIsTheOneSourceOfRulesAndSwift() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-gen-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let gen = Process()
        gen.executableURL = Self.root.appendingPathComponent("scripts/gen-known-readers.sh")
        gen.arguments = [dir.path]
        try gen.run()
        gen.waitUntilExit()
        #expect(gen.terminationStatus == 0)
        for path in ["udev/60-nfctap.rules", "Sources/ReaderCore/KnownReaders.swift"] {
            let generated = try String(contentsOf: dir.appendingPathComponent(path), encoding: .utf8)
            #expect(generated == (try Self.read(path)), "\(path) is not what scripts/gen-known-readers.sh makes of udev/known-readers.tsv")
        }
        let swiftIDs = Set(KnownReader.all.map { [String(format: "%04x", $0.vendorID), String(format: "%04x", $0.productID)] })
        #expect(swiftIDs == Self.requiredReaders)
        #expect(!Self.requiredReaders.contains(["054c", "06c1"]) && !Self.requiredReaders.contains(["054c", "06c3"]),
                "the Sony RC-S380 has no CCID or libnfc driver")
    }

    /// Every entry has the Linux driver it claims: libccid's Info.plist on this machine (when
    /// libccid is installed) and libnfc's device tables.
    @Test func everyKnownReaderHasALinuxDriver() throws {
        let plist = URL(fileURLWithPath: "/usr/lib/pcsc/drivers/ifd-ccid.bundle/Contents/Info.plist")
        var ccid: Set<[String]>?
        if let data = try? Data(contentsOf: plist),
           let dict = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
           let vendors = dict["ifdVendorID"] as? [String], let products = dict["ifdProductID"] as? [String] {
            ccid = Set(zip(vendors, products).map { [String($0.dropFirst(2)).lowercased(), String($1.dropFirst(2)).lowercased()] })
        }
        for row in try Self.knownReaderRows() {
            #expect(!row.drivers.isEmpty)
            for driver in row.drivers {
                switch driver {
                case "ccid": if let ccid { #expect(ccid.contains([row.vendor, row.product]), "\(row.vendor):\(row.product) not in libccid") }
                case "libnfc": #expect(Self.libnfcUSBDevices.contains([row.vendor, row.product]), "\(row.vendor):\(row.product) not in libnfc")
                default: Issue.record("unknown driver \(driver)")
                }
            }
        }
    }

    @Test func udevRulesParseAndCoverEveryReader() throws {
        let rules = try UdevRulesParser.parse(try Self.read("udev/60-nfctap.rules"))
        let deviceRules = rules.filter { $0.value("ATTR", "idVendor") != nil }
        let covered = Set(deviceRules.map { [$0.value("ATTR", "idVendor")!, $0.value("ATTR", "idProduct") ?? ""] })
        #expect(covered == Self.requiredReaders)
        for rule in deviceRules {
            #expect(rule.value("MODE", op: "=") == "0660", "line \(rule.line)")
            #expect(rule.value("GROUP", op: "=") == "plugdev", "line \(rule.line)")
            #expect(rule.value("TAG", op: "+=") == "uaccess", "line \(rule.line)")
        }
        // Only USB device nodes, only on add/change: the guard rules jump to the end label otherwise.
        #expect(rules.contains { $0.value("SUBSYSTEM", op: "!=") == "usb" && $0.value("GOTO") == "nfctap_end" })
        #expect(rules.contains { $0.value("ENV", "DEVTYPE", op: "!=") == "usb_device" })
    }

    @Test func udevRulesFileSortsBeforeUaccess() {
        // systemd-logind applies TAG+="uaccess" in 73-seat-late.rules: ours must come first.
        let number = Int("60-nfctap.rules".prefix(2))!
        #expect(number < 73)
        #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("udev/60-nfctap.rules").path))
    }

    @Test(arguments: [
        ("ATTR{idVendor}==\"072f", "unterminated"),
        ("ATTR{idVendor}==\"072f, MODE=\"0660\"", "expected ','"),
        ("ATTR{idVendor}==072f", "double-quoted"),
        ("FOO==\"1\"", "cannot be used"),
        ("MODE==\"0660\"", "cannot be used"),
        ("GOTO=\"nowhere\"", "has no LABEL"),
        ("ATTR==\"x\"", "needs {attribute}"),
        ("ACTION==\"add\" MODE=\"0660\"", "expected ','"),
    ])
    func parserRejectsBrokenRules(line: String, expected: String) {
        do {
            _ = try UdevRulesParser.parse(line)
            Issue.record("accepted: \(line)")
        } catch let error as UdevRulesError {
            #expect(error.message.contains(expected), "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func blacklistNamesTheKernelNFCModules() throws {
        let lines = try Self.read("udev/nfctap-blacklist.conf").split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        for line in lines {
            let words = line.split(separator: " ")
            #expect(words.count == 2 && words[0] == "blacklist", "modprobe.d(5) syntax: \(line)")
        }
        #expect(Set(lines.map { $0.split(separator: " ").last.map(String.init) ?? "" }) == ["pn533_usb", "pn533", "nfc"])
    }

    /// Runs `systemd-analyze verify` on a copy of the unit whose ExecStart points at the built binary
    /// (verify checks that the command exists). Returns its exit status and everything it printed.
    static func verifyUnit(_ text: String) throws -> (Int32, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let unit = dir.appendingPathComponent("nfctap-kiosk.service")
        try text.replacingOccurrences(of: "/usr/local/bin/nfctap", with: SystemEnvironment.cliPath)
            .write(to: unit, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        // --man=no: the Documentation= man pages are generated when packaging; DebInstallTests
        // checks that man finds them on an installed system.
        p.arguments = ["verify", "--man=no", unit.path]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: out, as: UTF8.self))
    }

    static let haveSystemdAnalyze = SystemEnvironment.tool("/usr/bin/systemd-analyze")

    @Test(.enabled(if: haveSystemdAnalyze || SystemEnvironment.environment["NFCTAP_REQUIRE_SYSTEM"] == "1"))
    func kioskUnitVerifiesCleanly() throws {
        let text = try Self.read("systemd/nfctap-kiosk.service")
        let (status, output) = try Self.verifyUnit(text)
        #expect(status == 0)
        #expect(output.isEmpty, "systemd-analyze verify printed: \(output)")
        // The properties the issue asks for.
        #expect(text.contains("After=pcscd.socket"))
        #expect(text.contains("Restart=on-failure"))
        #expect(text.contains("User=nfctap"))
        #expect(text.contains("NoNewPrivileges=yes"))
        #expect(text.contains("ExecReload=/bin/kill -HUP $MAINPID"))
        // No configuration, no start (not a restart every 2 s): the condition names ExecStart's --config.
        #expect(text.contains("ExecStart=/usr/local/bin/nfctap kiosk --config /etc/nfctap/kiosk.json\n"))
        #expect(text.contains("ConditionPathExists=/etc/nfctap/kiosk.json\n"))
        #expect(text.contains("Documentation=man:nfctap-kiosk(1) man:nfctap-kiosk.json(5)"))
    }

    @Test(.enabled(if: haveSystemdAnalyze || SystemEnvironment.environment["NFCTAP_REQUIRE_SYSTEM"] == "1"))
    func verifyCatchesABrokenUnit() throws {
        let text = try Self.read("systemd/nfctap-kiosk.service")
        let broken = text.replacingOccurrences(of: "Restart=on-failure", with: "Restrt=on-failure")
        let (_, output) = try Self.verifyUnit(broken)
        #expect(output.contains("Restrt"))
    }
}
