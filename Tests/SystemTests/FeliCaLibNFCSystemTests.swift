import CoreNFCLinux
import Foundation
import LibNFC
import NDEF
import NFCReaders
import NFCTags
import ReaderCore
import Testing
import TagEmulation

/// FeliCa Lite-S and a transit-shaped FeliCa Standard card through libnfc's real `pn532_uart`
/// driver and the PN532 emulator (docs/tags-and-readers.md §9.1), library and CLI.
@Suite("FeliCa over libnfc with the PN532 emulator", .serialized,
       .enabled(if: SystemEnvironment.available("libnfc"), "needs libnfc (scripts/services/libnfc.sh)"))
struct FeliCaLibNFCSystemTests {
    static let unconfigured = ["LIBNFC_DEVICE": "", "LIBNFC_DEFAULT_DEVICE": ""]
    let timing = LibNFCBackend.Timing(pollInterval: .milliseconds(50), presenceInterval: .milliseconds(50),
                                      retryInterval: .milliseconds(100))

    static func uriMessage(_ uri: String) -> [UInt8] {
        try! NDEFMessage(records: [NDEFRecord.uri(uri)]).encoded()
    }

    func withBackend(card: VirtualFeliCaCard, _ body: (PN532Emulator, LibNFCBackend, ReaderInfo) throws -> Void) throws {
        let emulator = PN532Emulator(tag: card)
        let path = try emulator.start()
        defer { emulator.stop() }
        let backend = LibNFCBackend(devices: ["pn532_uart:\(path)"], environment: [:], timing: timing)
        defer { backend.close() }
        try body(emulator, backend, ReaderInfo(name: "libnfc:pn532_uart:\(path)", backend: .libnfc))
    }

    @Test("a Lite-S is found by FeliCa polling: IDm, PMm, system code, FeliCa ATR; NDEF read at Nbr blocks per read")
    func liteSReadThroughTheBackend() throws {
        let message = Self.uriMessage("https://example.com/" + String(repeating: "f", count: 60))
        let card = VirtualFeliCaCard.liteS(ndef: message)
        try withBackend(card: card) { emulator, backend, reader in
            let detected = try #require(try backend.detectTag(on: reader))
            #expect(detected.technology == .feliCa)
            #expect(detected.uid == card.idm)
            #expect(detected.feliCa == FeliCaIdentity(idm: card.idm, pmm: card.pmm, systemCode: [0x88, 0xB4]))
            #expect(detected.atr.hexString == "3B8F8001804F0CA0000003061100" + "3B" + "0000000042")
            let connection = try backend.connect(to: detected, exclusive: true)
            defer { connection.disconnect() }
            #expect(connection.type2 == nil && connection.apdu == nil && connection.feliCa != nil)
            emulator.plan.reset()
            let ops = try connection.ndefOperations()
            #expect(try ops.readNDEF() == message)
            // Polling 12FC, block 0, then ⌈6 blocks / Nbr 4⌉ = 2 reads.
            #expect(emulator.plan.exchangeCount == 4, "\(emulator.plan.log.map { $0.hexString(separator: " ") })")
            #expect(emulator.plan.log.first == [0x06, 0x00, 0x12, 0xFC, 0x00, 0x00])
        }
    }

    /// libnfc copies IDm and PMm out of any answer to InListPassiveTarget: a short POL_RES (LEN 4)
    /// or one with another response code must not become a card with IDm 0000… or FFFF….
    @Test("a short or garbled POL_RES through libnfc is no card, never one with a made-up IDm",
          arguments: [[UInt8]([0x04, 0x01, 0xAA, 0xBB]), [0x12, 0x55] + [UInt8](repeating: 0xFF, count: 16), [0x02, 0x01]])
    func hostilePollingAnswer(_ answer: [UInt8]) throws {
        let card = VirtualFeliCaCard.liteS(ndef: Self.uriMessage("https://example.com/hostile"))
        card.answerPolling(with: answer)
        try withBackend(card: card) { _, backend, reader in
            let hostile = try backend.detectTag(on: reader)
            #expect(hostile == nil, "\(hostile.map { $0.uid.hexString } ?? "")")
            card.answerPolling(with: nil)
            let proper = try backend.detectTag(on: reader)
            #expect(proper?.uid == card.idm, "the same card, answering properly, is found")
        }
    }

    @Test("write and lock through the backend: WriteF raised first and cleared last, 1 block per write")
    func liteSWriteThroughTheBackend() throws {
        let card = VirtualFeliCaCard.liteS(ndef: [])
        try withBackend(card: card) { emulator, backend, reader in
            let detected = try #require(try backend.detectTag(on: reader))
            let connection = try backend.connect(to: detected, exclusive: true)
            defer { connection.disconnect() }
            emulator.plan.reset()
            let message = Self.uriMessage("https://nfctap.example/felica")
            try connection.ndefOperations().writeNDEF(message)
            let blocks = (message.count + 15) / 16
            // Polling 12FC, read block 0, block 0 (WriteF 0F), data blocks, block 0 (Ln, WriteF 00), read back.
            #expect(emulator.plan.exchangeCount == 4 + blocks + 1)
            #expect(try Type3AttributeBlock(block: card.block(0)!).length == message.count)
            #expect(try connection.ndefOperations().queryNDEFStatus() == (.readWrite, 208))
        }
    }

    @Test("the monitor reports a FeliCa card's arrival and departure (presence by re-polling, not Request Response)")
    func monitorSeesFeliCa() throws {
        let card = VirtualFeliCaCard.liteS(ndef: [])
        try withBackend(card: card) { emulator, backend, _ in
            let events = ReaderEventRecorder()
            let monitor = try backend.startMonitoring(events.handler)
            defer { monitor.stop() }
            guard case let .tagArrived(tag)? = events.next("tagArrived", { if case .tagArrived = $0 { true } else { false } }) else { return }
            #expect(tag.technology == .feliCa && tag.uid == card.idm)
            // Several presence checks pass without the card leaving (Lite-S has no Request Response).
            emulator.plan.reset()
            emulator.tag = nil
            guard case let .tagLeft(left)? = events.next("tagLeft", { if case .tagLeft = $0 { true } else { false } }) else { return }
            #expect(left == tag)
        }
    }

    @Test("the transit card answers Request Service and Read Without Encryption through libnfc")
    func transitCommands() throws {
        let card = VirtualFeliCaCard.transitCard()
        try withBackend(card: card) { _, backend, reader in
            let detected = try #require(try backend.detectTag(on: reader))
            #expect(detected.feliCa?.systemCode == [0x00, 0x03])
            let connection = try backend.connect(to: detected, exclusive: true)
            defer { connection.disconnect() }
            let tag = FeliCaTag(link: try #require(connection.feliCa), idm: detected.uid, pmm: detected.feliCa!.pmm)
            #expect(try tag.requestService(nodeCodes: [[0x0F, 0x09]]) == [[0x00, 0x00]])
            #expect(try tag.readBlocks([0, 1], service: 0x090F) == [card.block(0, store: 1)!, card.block(1, store: 1)!])
        }
    }

    @Test("CLI: scan, write and inventory a Lite-S on libnfc:pn532_uart:<pty>")
    func cliScanWriteInventory() throws {
        let card = VirtualFeliCaCard.liteS(ndef: Self.uriMessage("https://example.com/lite-s"))
        let emulator = PN532Emulator(tag: card)
        let path = try emulator.start()
        defer { emulator.stop() }
        let name = "libnfc:pn532_uart:\(path)"
        let scan = try runCLI(["scan", "--json", "--timeout", "20", "--reader", name], environment: Self.unconfigured)
        #expect(scan.status == 0, "\(scan.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(scan.stdout.utf8)) as? [String: Any], "\(scan.stdout)")
        #expect(object["uid"] as? String == card.idm.hexString)
        #expect(object["type"] as? String == "felica")
        #expect(object["product"] as? String == "FeliCa Lite-S RC-S966")
        #expect(object["pmm"] as? String == card.pmm.hexString)
        #expect(scan.stdout.contains("https://example.com/lite-s"), "\(scan.stdout)")

        emulator.plan.reset()
        let write = try runCLI(["write", "--text", "hej", "--lang", "sv", "--json", "--timeout", "20", "--reader", name],
                               environment: Self.unconfigured)
        #expect(write.status == 0, "\(write.stderr)")
        let written = try Type3AttributeBlock(block: card.block(0)!)
        #expect(!written.writeInProgress && written.length == 10)
        #expect(Array(card.block(1)!.prefix(10)) == (try NDEFMessage(records: [try NDEFRecord.text("hej", language: "sv")]).encoded()))

        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("inventory.jsonl").path
        let inventory = try runCLI(["inventory", "--output", output, "--timeout", "3", "--reader", name], environment: Self.unconfigured)
        #expect(inventory.status == 0, "\(inventory.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8).contains(card.idm.hexString))
    }
}

extension FeliCaLibNFCSystemTests {
    @Test("CLI: readers --json names the FeliCa chip; kiosk records a Lite-S tap")
    func cliReadersAndKiosk() throws {
        let card = VirtualFeliCaCard.liteS(ndef: Self.uriMessage("https://example.com/kiosk"))
        let emulator = PN532Emulator(tag: card)
        let path = try emulator.start()
        defer { emulator.stop() }
        let name = "libnfc:pn532_uart:\(path)"
        let readers = try runCLI(["readers", "--json", "--reader", name], environment: Self.unconfigured)
        #expect(readers.status == 0, "\(readers.stderr)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(readers.stdout.utf8)) as? [[String: Any]])
        let tag = try #require(list.first?["tag"] as? [String: Any], "\(readers.stdout)")
        #expect(tag["technology"] as? String == "felica")
        #expect(tag["uid"] as? String == card.idm.hexString)
        #expect(tag["pmm"] as? String == card.pmm.hexString)
        #expect(tag["systemCode"] as? String == "88B4")
        #expect(tag["product"] as? String == "FeliCa Lite-S RC-S966")

        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("kiosk.json").path
        let output = dir.appendingPathComponent("taps.jsonl").path
        try #"{"action": "json", "output": "\#(output)", "readers": ["\#(name)"]}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let kiosk = try KioskProcess(arguments: ["kiosk", "--config", config], environment: Self.unconfigured)
        let lines = try waitForJSONLines(output, count: 1)
        #expect(lines.first?["uid"] as? String == card.idm.hexString)
        #expect(lines.first?["type"] as? String == "felica")
        #expect(kiosk.terminate() == 0)
    }
}

/// The transit-shaped card through CoreNFCLinux on the libnfc path: Apple's calls, Apple's answers.
@Suite("NFCFeliCaTag over libnfc with the PN532 emulator", .serialized,
       .enabled(if: SystemEnvironment.available("libnfc"), "needs libnfc (scripts/services/libnfc.sh)"))
struct FeliCaCoreNFCLibNFCSystemTests {
    // @unchecked: `tags` is written on the session queue before `ready` is signalled, read after.
    final class Delegate: NFCTagReaderSessionDelegate, @unchecked Sendable {
        let ready = DispatchSemaphore(value: 0)
        var tags: [NFCTag] = []
        func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {}
        func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) { self.tags = tags; ready.signal() }
        func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error) { ready.signal() }
    }

    @Test("requestService and readWithoutEncryption on a transit card, system 0003 selected from the declared list")
    func transitThroughCoreNFC() async throws {
        let card = VirtualFeliCaCard.transitCard()
        let emulator = PN532Emulator(tag: card)
        let path = try emulator.start()
        defer { emulator.stop() }
        let backend = LibNFCBackend(devices: ["pn532_uart:\(path)"], environment: [:],
                                    timing: LibNFCBackend.Timing(pollInterval: .milliseconds(50), presenceInterval: .milliseconds(50),
                                                                 retryInterval: .milliseconds(100)))
        defer { backend.close() }
        var configuration = NFCSessionConfiguration()
        configuration.timeLimit = nil
        configuration.feliCaSystemCodes = [[0x12, 0xFC], [0x00, 0x03]]
        let environment = NFCReaderEnvironment(makeBackends: { [backend] }, makeNDEFOperations: { try $0.ndefOperations() },
                                               slot: NFCSessionSlot())
        let delegate = Delegate()
        let session = try #require(NFCTagReaderSession(pollingOption: [.iso14443, .iso18092], delegate: delegate,
                                                       configuration: configuration, environment: environment))
        session.begin()
        defer { session.invalidate() }
        #expect(delegate.ready.wait(timeout: .now() + 15) == .success)
        guard case let .feliCa(tag)? = delegate.tags.first else { Issue.record("no FeliCa tag: \(delegate.tags)"); return }
        try await session.connect(to: .feliCa(tag))
        #expect(tag.currentSystemCode == Data([0x00, 0x03]) && tag.currentIDm == Data(card.idm))
        emulator.plan.reset()
        let versions = try await tag.requestService(nodeCodeList: [Data([0x8B, 0x00]), Data([0x0F, 0x09])])
        #expect(versions == [Data([0x00, 0x00]), Data([0x00, 0x00])])
        let (flag1, flag2, blocks) = try await tag.readWithoutEncryption(serviceCodeList: [Data([0x0F, 0x09])],
                                                                          blockList: (0..<3).map { Data([0x80, UInt8($0)]) })
        #expect(flag1 == 0 && flag2 == 0)
        #expect(blocks == (0..<3).map { Data(card.block($0, store: 1)!) })
        // Exactly the two commands reached the card.
        #expect(emulator.plan.exchangeCount == 2, "\(emulator.plan.log.map { $0.hexString(separator: " ") })")
    }
}
