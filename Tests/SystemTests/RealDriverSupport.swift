import Foundation
import NFCTags
import ReaderCore
import TagEmulation
import Testing

/// Ring 4 (real drivers, docs/architecture.md "Tests, in four rings"): readers emulated at the USB boundary
/// by scripts/usb-reader-emulator, driven by an unmodified pcscd + libccid and by libnfc's USB
/// drivers (scripts/services/usbreaders.sh starts both; docs/tags-and-readers.md §5).
///
/// The test process talks to the vpcd ring's pcscd (its PCSCLITE_CSOCK_NAME), so everything here
/// goes through processes given `USBRing.pcsc` or `USBRing.preload`: the CLI, the examples. The
/// card in an emulated reader's field is the project's own virtual tag, in this process: a
/// `VPCDCard` connecting to the emulator's card port (CCID readers) or a `PN532Emulator` on the
/// pseudo-terminal the emulator forwards PN53x frames to (libnfc readers).
enum USBRing {
    static var env: [String: String] { SystemEnvironment.environment }
    static var ctl: String { env["NFCTAP_USB_CTL"] ?? "/nonexistent/usbreaders-ctl" }
    static var directory: String { env["NFCTAP_USB_DIR"] ?? "/nonexistent" }
    static var basePort: UInt16 { env["NFCTAP_USB_CARD_PORT"].flatMap(UInt16.init) ?? 35980 }
    /// Where the SCL3711's PN53x frames go (the emulator's `chip=`).
    static var chipLink: String { directory + "/scl3711-pn532" }

    /// PC/SC through the ring's own pcscd (libccid over the emulated USB).
    static var pcsc: [String: String] { ["PCSCLITE_CSOCK_NAME": env["NFCTAP_USB_PCSCD_SOCKET"] ?? "/nonexistent"] }
    /// The emulated bus as well: libnfc's USB drivers (and `doctor`'s sysfs reads) under umockdev's preload.
    static var preload: [String: String] {
        pcsc.merging(["LD_PRELOAD": "libumockdev-preload.so.0", "UMOCKDEV_DIR": env["NFCTAP_USB_UMOCKDEV_DIR"] ?? "/nonexistent"]) { $1 }
    }

    struct ControlFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs scripts/services/usbreaders-ctl; its stdout, trimmed.
    @discardableResult
    static func control(_ args: [String]) throws -> String {
        let r = try runProgram(ctl, args)
        guard r.status == 0 else { throw ControlFailed(description: "usbreaders-ctl \(args.joined(separator: " ")): \(r.stderr)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A control command to the emulator (scripts/usb-reader-emulator/usb-reader-emulator.py).
    @discardableResult
    static func emulator(_ args: String...) throws -> String { try control(["emu"] + args) }

    /// What the emulated reader `name` received and sent since the last `resetCounts`
    /// (CCID message names, `NotifySlotChange`, `led`, `pn53x-frame`…).
    static func counts(_ name: String) throws -> [String: Int] {
        try JSONDecoder().decode([String: Int].self, from: Data(try emulator("counts", name).utf8))
    }

    static func resetCounts(_ names: String...) throws {
        for name in names { try emulator("reset-counts", name) }
    }

    /// The USB device number of an emulated reader (for libnfc's `driver:001:DDD` connstrings).
    static func devnum(_ name: String) throws -> Int {
        let list = try JSONSerialization.jsonObject(with: Data(try emulator("list").utf8)) as? [String: [String: Any]]
        guard let n = list?[name]?["devnum"] as? Int else { throw ControlFailed(description: "no emulated reader \(name)") }
        return n
    }

    static func connstring(_ driver: String, _ name: String) throws -> String {
        let n = try devnum(name)
        return "libnfc:\(driver):001:" + String(format: "%03d", n)
    }

    /// Until the ring's pcscd lists `count` readers (it sees hotplug events a moment later).
    static func waitForReaders(_ count: Int) throws { try control(["wait-readers", String(count)]) }

    /// The CCID readers the ring starts, as libccid names them.
    static let allReaderCount = 5
}

/// One CCID profile of the emulator: the name libccid gives it, its card port, and the reader
/// personality (`EmulatedPCSCReader`) the virtual card answers pseudo-APDUs with.
struct USBProfile: CustomStringConvertible, Sendable {
    /// The emulator's name for the reader.
    let key: String
    /// What pcscd calls it (libccid's Info.plist name, `[iInterface]`, slot numbers).
    let readerName: String
    /// A unique part of the name, for `--reader`.
    let match: String
    let portOffset: UInt16
    let personality: PCSCReaderProfile
    var description: String { key }
    var port: UInt16 { USBRing.basePort + portOffset }

    static let acr122u = USBProfile(key: "acr122u", readerName: "ACS ACR122U PICC Interface 00 00",
                                    match: "ACR122U", portOffset: 0, personality: .acr122u)
    static let acr1252u = USBProfile(key: "acr1252u", readerName: "ACS ACR1252 Dual Reader [ACR1252 Dual Reader PICC] 01 00",
                                     match: "ACR1252 Dual Reader PICC", portOffset: 1, personality: .acr1252u)
    static let omnikey = USBProfile(key: "omnikey5022",
                                    readerName: "HID Global OMNIKEY 5022 Smart Card Reader [OMNIKEY 5022 Smart Card Reader] 03 00",
                                    match: "OMNIKEY 5022", portOffset: 2, personality: .omnikey)
    static let utrust = USBProfile(key: "utrust3700f", readerName: "Identiv uTrust 3700 F CL Reader [uTrust 3700 F CL Reader] 04 00",
                                   match: "uTrust 3700 F", portOffset: 3, personality: .identiv)
    static let ccid = [acr122u, acr1252u, omnikey, utrust]

    /// Puts `tag` in this reader's field once pcscd shows the field empty (a previous card's
    /// removal reaches it from the interrupt endpoint a moment later); `remove()` takes it out.
    func tap(_ tag: VirtualTag) throws -> USBCard {
        try USBRing.control(["wait-empty", match])
        let reader = EmulatedPCSCReader(profile: personality, tag: tag)
        let card = VPCDCard(behaviour: reader, port: port)
        try card.insert()
        return USBCard(reader: reader, card: card)
    }
}

/// A virtual tag in an emulated reader's field: the APDUs it received are `reader.plan.log`.
struct USBCard {
    let reader: EmulatedPCSCReader
    let card: VPCDCard

    func remove() { card.remove() }
    var log: [[UInt8]] { reader.plan.log }
}
