import Foundation
import NFCTags
import TagEmulation

/// `nfctap emulate`: a virtual tag presented to pcscd through vpcd, or to libnfc as a PN532 on a
/// pseudo-terminal, until SIGINT/SIGTERM (or the duration).
package struct EmulateRun {
    package enum Source: Sendable {
        /// A built-in tag (`VirtualTagCatalog.presets`).
        case preset(String)
        /// A Type 2 memory image or an NDEF message in a file, put on `chip`.
        case file(String, chip: VirtualTagCatalog.Chip)
        /// A dump: Flipper Zero's `.nfc` text or nfctap's JSON (`nfctap dump`).
        case dump(String)
    }

    package enum Target: Sendable {
        case vpcd(host: String, port: UInt16, profile: PCSCReaderProfile)
        /// `link`: a symbolic link to the pty, a stable path across restarts.
        case pn532(link: String?)
    }

    package var source: Source
    package var target: Target
    package var latency: Duration
    package var duration: Duration?

    package init(source: Source, target: Target, latency: Duration, duration: Duration?) {
        self.source = source
        self.target = target
        self.latency = latency
        self.duration = duration
    }

    /// - Throws: `CLIError`: 1 an unreadable or invalid tag file, 3 vpcd unreachable.
    package func run() async throws(CLIError) {
        let virtualTag: VirtualTag
        do {
            switch source {
            case let .preset(name):
                virtualTag = try VirtualTagCatalog.make(preset: name)
            case let .file(path, chip):
                guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("cannot read \(path)") }
                virtualTag = try VirtualTagCatalog.make(fileBytes: [UInt8](data), chip: chip)
            case let .dump(path):
                guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("cannot read \(path)") }
                do {
                    virtualTag = try VirtualTagCatalog.make(dump: try TagDumpFile.load(data))
                } catch let error as TagDumpFileError {
                    throw CLIError("\(path): \(error)")
                }
            }
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError(String(describing: error))
        }
        let plan = FaultPlan(latency: latency)
        let signals = SignalWaiter()
        let describeTag = "\(Self.kind(of: virtualTag)) \(virtualTag.uid.hexString)"

        switch target {
        case let .vpcd(host, port, profile):
            let reader = EmulatedPCSCReader(profile: profile, tag: virtualTag, plan: plan)
            let card = VPCDCard(behaviour: reader, host: host, port: port)
            do { try card.insert() } catch {
                throw CLIError("cannot reach vpcd at \(host):\(port): \(error). Is pcscd running with vsmartcard-vpcd installed?",
                               status: ExitStatus.noReader)
            }
            Stderr.line("nfctap: \(describeTag) is on the vpcd reader at \(host):\(port); Ctrl-C removes it")
            _ = await signals.next(timeout: duration)
            card.remove()
        case let .pn532(link):
            guard !(virtualTag is VirtualISO15693Tag) else {
                throw CLIError("a PN532 has no ISO 15693 (NFC-V) radio: present this tag with --vpcd")
            }
            let emulator = PN532Emulator(tag: virtualTag, plan: plan, linkPath: link)
            let path: String
            do { path = try emulator.start() } catch { throw CLIError(String(describing: error)) }
            print("pn532_uart:\(link ?? path)")
            StandardOutput.flush()
            Stderr.line("nfctap: PN532 with a \(describeTag) on \(path); Ctrl-C stops it")
            _ = await signals.next(timeout: duration)
            emulator.stop()
        }
    }

    /// "Type 2 tag, UID", "MIFARE Classic 1K, UID", "ISO 15693 tag, UID", "FeliCa (Type 3) card, IDm".
    static func kind(of tag: VirtualTag) -> String {
        switch tag {
        case is VirtualFeliCaCard: return "FeliCa (Type 3) card, IDm"
        case let classic as VirtualMifareClassic: return "\(classic.layout.productName), UID"
        case is VirtualISO15693Tag: return "ISO 15693 (Type 5) tag, UID"
        default: return tag.sak & 0x20 != 0 ? "Type 4 tag, UID" : "Type 2 tag, UID"
        }
    }

    package static func profile(_ name: String) -> PCSCReaderProfile {
        switch name.lowercased() {
        case "acr122u": return .acr122u
        case "acr1252u": return .acr1252u
        case "identiv": return .identiv
        case "omnikey": return .omnikey
        case "springcard": return .springcard
        default: return .generic
        }
    }
}
