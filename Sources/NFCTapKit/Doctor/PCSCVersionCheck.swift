import Foundation
import NFCReaders
import ReaderCore

/// The versions of pcscd and libccid, and each ACS reader's firmware: what a bug report about a
/// reader needs first.
package struct PCSCVersionCheck {
    package init() {}

    /// Where libccid's bundle keeps its version (`CFBundleShortVersionString`).
    package static let ccidInfoPlist = "/usr/lib/pcsc/drivers/ifd-ccid.bundle/Contents/Info.plist"

    /// - Parameter readers: the PC/SC reader names to ask; nil asks pcscd for them.
    package func run(_ root: SystemRoot, readers given: [String]? = nil) -> [DoctorFinding] {
        let readers = given ?? ((try? PCSCBackend().listReaders())?.map(\.name) ?? [])
        let pcscd = root.prefix.isEmpty ? Self.pcscdVersion() : nil
        let ccid = root.read(Self.ccidInfoPlist).flatMap(Self.bundleVersion)
        var findings = [DoctorFinding(check: "pcsc-versions", status: .info,
                                      summary: "pcscd \(pcscd ?? "version unknown"), libccid \(ccid ?? "version unknown")",
                                      fix: nil)]
        for name in readers {
            if let version = PCSCReaderFirmware.deviceVersion(readerName: name) {
                findings.append(DoctorFinding(check: "reader-version", status: .info,
                                              summary: "\(name): device version \(version) (reader attribute)", fix: nil))
            }
            switch PCSCReaderFirmware.ask(readerName: name) {
            case let .firmware(text):
                findings.append(DoctorFinding(check: "reader-firmware", status: .info, summary: "\(name): firmware \(text)", fix: nil))
            case .unavailable:
                findings.append(DoctorFinding(check: "reader-firmware", status: .info,
                                              summary: "\(name): firmware not readable (put a tag on it, or allow escape commands: ifdDriverOptions 0x0001)",
                                              fix: nil))
            case .notAsked:
                continue
            }
        }
        return findings
    }

    /// `CFBundleShortVersionString` of an Info.plist, read as text (the plist is small XML).
    package static func bundleVersion(_ plist: String) -> String? {
        guard let key = plist.range(of: "<key>CFBundleShortVersionString</key>"),
              let open = plist.range(of: "<string>", range: key.upperBound ..< plist.endIndex),
              let close = plist.range(of: "</string>", range: open.upperBound ..< plist.endIndex) else { return nil }
        let value = plist[open.upperBound ..< close.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty, value.count <= 32, value.allSatisfy({ $0.isNumber || $0 == "." }) else { return nil }
        return value
    }

    /// "1.9.9" from `pcscd --version` ("pcsc-lite version 1.9.9."), nil when it does not run.
    static func pcscdVersion() -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/pcscd")
        process.arguments = ["--version"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile().prefix(4096)
        process.waitUntilExit()
        return pcscdVersion(fromOutput: String(decoding: data, as: UTF8.self))
    }

    package static func pcscdVersion(fromOutput text: String) -> String? {
        guard let range = text.range(of: "pcsc-lite version ") else { return nil }
        let version = text[range.upperBound...].prefix { $0.isNumber || $0 == "." }
        let trimmed = version.hasSuffix(".") ? version.dropLast() : version
        return trimmed.isEmpty ? nil : String(trimmed)
    }
}
