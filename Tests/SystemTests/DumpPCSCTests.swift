import Foundation
import NDEF
import NFCTags
import Testing
import TagEmulation

// `nfctap dump` and `nfctap emulate --dump` through pcscd + vpcd (docs/dump.md): the memory read
// through the readers' own commands (READ BINARY and GET_VERSION / READ_SIG for Type 2, Load Keys
// and General Authenticate for MIFARE Classic, the transparent exchange for ISO 15693), and a
// dump file served by the emulator process comes back byte for byte.
extension PCSCSystemTests {
    @Suite("dump and emulate --dump through pcscd and vpcd")
    struct DumpPCSCTests {
        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        static let environment = ["LIBNFC_DEVICE": "", "LIBNFC_DEFAULT_DEVICE": ""]

        func dumpCLI(json: Bool = false) throws -> CLIResult {
            try runCLI(["dump", "--timeout", "20", "--reader", TestPCSCD.reader0] + (json ? ["--json"] : []), environment: Self.environment)
        }

        /// vpcd's reader is not one nfctap knows by name: `dump` asks it for the transparent
        /// exchange (`FF C2`) to reach GET_VERSION and READ_SIG, which the ACR1252U personality has.
        @Test("an NTAG215 on an ACR1252U: every page as the chip reads it, GET_VERSION and READ_SIG")
        func type2() throws {
            let tag = try #require(try VirtualTagCatalog.make(preset: "ntag215") as? VirtualType2Tag)
            try TestPCSCD.withCard(tag, profile: .acr1252u) { _ in
                let result = try dumpCLI()
                #expect(result.status == 0, "\(result.stderr)")
                let dump = try FlipperNFCFile.parse(result.stdout)
                guard case let .type2(m) = dump.memory else { Issue.record("not Type 2: \(result.stdout)"); return }
                #expect(m.product == .ntag215 && m.pagesRead == 135)
                #expect(m.pages.prefix(133).flatMap { $0! } == Array(tag.memory.prefix(133 * 4)))
                #expect(m.signature == tag.originalitySignature && m.version == Type2Product.ntag215.versionBytes)
                #expect(dump.uid == tag.uid)
            }
        }

        @Test("an NDEF-formatted Classic 1K (ACR122U) and 4K (Identiv): every block, the trailers with the keys that opened them",
              arguments: [(MifareClassicLayout.classic1K, PCSCReaderProfile.acr122u), (.classic4K, .identiv)])
        func classic(_ layout: MifareClassicLayout, _ profile: PCSCReaderProfile) throws {
            let card = VirtualMifareClassic.ndefFormatted(layout, message: try NDEFMessage(records: [.uri("https://example.com/d")]).encoded())
            try TestPCSCD.withCard(card, profile: profile) { _ in
                let result = try dumpCLI(json: true)
                #expect(result.status == 0, "\(result.stderr)")
                let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
                #expect(json["type"] as? String == "mifareClassic" && json["layout"] as? String == layout.rawValue)
                let blocks = try #require(json["blocks"] as? [String])
                #expect(blocks == card.blocks.map(\.hexString))
            }
        }

        @Test("Flipper's SLIX2 label dump on an OMNIKEY: blocks, DSFID, AFI and security status")
        func iso15693() throws {
            let tag = VirtualISO15693Tag.flipperSLIX2Dump()
            try TestPCSCD.withCard(tag, profile: .omnikey) { _ in
                let result = try dumpCLI()
                #expect(result.status == 0, "\(result.stderr)")
                let dump = try FlipperNFCFile.parse(result.stdout)
                guard case let .iso15693(m) = dump.memory else { Issue.record("not ISO 15693: \(result.stdout)"); return }
                #expect(m.blocks.flatMap { $0! } == VirtualISO15693Tag.flipperSLIX2Memory)
                #expect(m.dsfid == 0x01 && m.afi == 0x3D && m.security == [UInt8](repeating: 0, count: 80))
                #expect(dump.uid == VirtualISO15693Tag.flipperSLIX2UID)
            }
        }

        /// nfctap's side of vpcd is the generic profile: Load Keys with P1 `00` (not the OMNIKEY's
        /// `20`), so Classic goes behind an ACR122U personality, ISO 15693 behind an OMNIKEY's.
        @Test("emulate --dump serves a Flipper .nfc file; dump reads it back byte for byte", arguments: [
            ("ntag213", "acr1252u"), ("classic-1k", "acr122u"), ("icode-slix2", "omnikey"),
        ])
        func emulateDump(_ preset: String, _ profile: String) throws {
            // The file: what the in-process virtual tag dumps to (NFCTapKitTests.DumpRunTests checks that path).
            let file = try Self.flipperFile(of: try VirtualTagCatalog.make(preset: preset))
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-dump-\(preset)-\(getpid()).nfc").path
            try file.write(toFile: path, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let emulator = Process()
            emulator.executableURL = URL(fileURLWithPath: SystemEnvironment.cliPath)
            emulator.arguments = ["emulate", "--vpcd", "127.0.0.1:\(TestPCSCD.port0)", "--dump", path, "--profile", profile, "--duration", "30"]
            emulator.standardOutput = FileHandle.nullDevice
            emulator.standardError = FileHandle.nullDevice
            try emulator.run()
            defer { emulator.terminate(); emulator.waitUntilExit() }
            try TestPCSCD.waitUntilCardIsPresent(TestPCSCD.reader0)
            let result = try dumpCLI()
            #expect(result.status == 0, "\(result.stderr)")
            let got = result.stdout.split(separator: "\n"), want = file.split(separator: "\n")
            #expect(result.stdout == file, "differs: \(zip(got, want).filter { $0 != $1 }.prefix(4).map { "\($0) ≠ \($1)" })")
        }

        /// The dump a tag's memory makes, as `nfctap dump` writes it (all keys known, every block readable).
        static func flipperFile(of tag: any VirtualTag) throws -> String {
            switch tag {
            case let t as VirtualType2Tag:
                var pages = stride(from: 0, to: t.memory.count, by: 4).map { Array(t.memory[$0 ..< $0 + 4]) } as [[UInt8]?]
                pages[pages.count - 2] = [0, 0, 0, 0]  // PWD reads as zeros
                pages[pages.count - 1] = [0, 0] + pages[pages.count - 1]!.suffix(2) // PACK too
                return FlipperNFCFile.text(of: TagDump(uid: t.uid, atqa: t.atqa, sak: t.sak, memory: .type2(Type2Memory(
                    product: t.product, version: t.product.versionBytes, signature: t.originalitySignature, pages: pages))))
            case let c as VirtualMifareClassic:
                return FlipperNFCFile.text(of: TagDump(uid: c.uid, atqa: c.atqa, sak: c.sak, memory: .mifareClassic(
                    MifareClassicMemory(layout: c.layout, blocks: c.blocks.map { $0.map { $0 } }))))
            case let v as VirtualISO15693Tag:
                return FlipperNFCFile.text(of: TagDump(uid: v.uid, memory: .iso15693(ISO15693Memory(
                    dsfid: 0, afi: 0, icReference: v.model.icReference, blockSize: v.model.blockSize,
                    blocks: stride(from: 0, to: v.memory.count, by: v.model.blockSize).map { Array(v.memory[$0 ..< $0 + v.model.blockSize]) },
                    security: [UInt8](repeating: 0, count: v.model.blockCount)))))
            default:
                throw TagDumpFileError("no dump for this tag")
            }
        }
    }
}
