import Foundation
import NFCReaders
import ReaderCore

/// What the real drivers do with the known readers on the USB bus (docs/tags-and-readers.md §5):
/// firmware libccid refuses, escape commands libccid does not pass, and a reader that pcscd holds
/// while libnfc's USB driver is wanted for it.
package struct USBReaderDriverCheck {
    package init() {}

    /// libccid's Info.plist (Debian's libccid package).
    package static let infoPlist = "/usr/lib/pcsc/drivers/ifd-ccid.bundle/Contents/Info.plist"

    /// Readers whose LED/buzzer nfctap drives with escape commands (SCardControl), by name part.
    static let escapeFeedbackReaders = ["ACR1252", "ACR1255"]

    /// Every finding of this check, with the readers pcscd lists now (none when it is not running).
    package func run(_ root: SystemRoot) -> [DoctorFinding] {
        let names = ((try? PCSCBackend().listReaders()) ?? []).map(\.name)
        return firmware(root) + [escapeCommands(root, pcscReaders: names)].compactMap { $0 } + sharedReaders(root, pcscReaders: names)
    }

    /// libccid 1.5.2 refuses an ACR122U whose bcdDevice is 2.05 ("Firmware (2.05) is bogus!"):
    /// pcscd logs "init failed" and lists nothing. libnfc's acr122_usb drives it.
    package func firmware(_ root: SystemRoot) -> [DoctorFinding] {
        USBPermissionCheck().readers(root).compactMap { found in
            guard found.reader.vendorID == 0x072F, found.reader.productID == 0x2200,
                  let text = root.read("/sys/bus/usb/devices/\(found.sysfsName)/bcdDevice"),
                  UInt16(text.trimmingCharacters(in: .whitespacesAndNewlines), radix: 16) == 0x0205
            else { return nil }
            return DoctorFinding(
                check: "reader-firmware", status: .failure,
                summary: "\(found.reader.name) at \(found.devnode) has firmware 2.05, which the CCID driver (libccid) refuses: pcscd will not show it",
                fix: "use it through libnfc instead (stop pcscd: \(DoctorAdvice.asRoot("systemctl stop pcscd.socket pcscd")); then "
                    + "nfctap scan --reader libnfc:acr122_usb), or replace the reader (firmware 2.06 and 2.07 work with libccid)")
        }
    }

    /// libccid passes SCardControl escape commands only when its `ifdDriverOptions` has bit 0x0001;
    /// nfctap then has no LED/buzzer on the readers it drives that way (taps are read all the same).
    /// One finding, however many such readers pcscd lists.
    package func escapeCommands(_ root: SystemRoot, pcscReaders: [String]) -> DoctorFinding? {
        let affected = pcscReaders.filter { name in Self.escapeFeedbackReaders.contains { name.contains($0) } }
        guard !affected.isEmpty else { return nil }
        let names = affected.joined(separator: ", ")
        if let options = Self.driverOptions(root.read(Self.infoPlist)), options & 0x0001 != 0 {
            return DoctorFinding(check: "escape-commands", status: .ok,
                                 summary: "libccid passes escape commands: LED/buzzer feedback on \(names)", fix: nil)
        }
        return DoctorFinding(
            check: "escape-commands", status: .warning,
            summary: "libccid refuses escape commands (ifdDriverOptions lacks 0x0001): no LED/buzzer feedback on \(names); taps are read all the same",
            fix: "set ifdDriverOptions to 0x0001 in \(Self.infoPlist), then \(DoctorAdvice.asRoot("systemctl restart pcscd"))")
    }

    /// A reader both stacks can drive that pcscd holds: libnfc's USB driver cannot claim its
    /// interface ("Unable to claim USB interface (Device or resource busy)").
    package func sharedReaders(_ root: SystemRoot, pcscReaders: [String]) -> [DoctorFinding] {
        USBPermissionCheck().readers(root).compactMap { found in
            guard found.reader.drivers.contains("libnfc"), found.reader.drivers.contains("ccid"),
                  let held = pcscReaders.first(where: { Self.pcscName($0, matches: found.reader) })
            else { return nil }
            return DoctorFinding(
                check: "reader-stacks", status: .info,
                summary: "pcscd holds \(found.reader.name) at \(found.devnode) (\(held)): libnfc's USB driver cannot open it while pcscd runs",
                fix: "use it through PC/SC (--reader '\(held)'), or stop pcscd to use libnfc: \(DoctorAdvice.asRoot("systemctl stop pcscd.socket pcscd"))")
        }
    }

    /// PC/SC names carry the model: "ACS ACR122U PICC Interface 00 00" for "ACS ACR122U".
    static func pcscName(_ name: String, matches reader: KnownReader) -> Bool {
        guard let model = reader.name.split(separator: " ").dropFirst().first else { return false }
        return name.contains(model)
    }

    /// `ifdDriverOptions` from libccid's Info.plist (`<key>ifdDriverOptions</key> <string>0x0000</string>`).
    static func driverOptions(_ plist: String?) -> UInt32? {
        guard let plist, let key = plist.range(of: "<key>ifdDriverOptions</key>"),
              let open = plist.range(of: "<string>", range: key.upperBound..<plist.endIndex),
              let close = plist.range(of: "</string>", range: open.upperBound..<plist.endIndex)
        else { return nil }
        let text = plist[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
        return text.hasPrefix("0x") ? UInt32(text.dropFirst(2), radix: 16) : UInt32(text)
    }
}
