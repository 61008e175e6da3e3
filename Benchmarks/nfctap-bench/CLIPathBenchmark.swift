import Foundation
import NDEF
import NFCReaders
import ReaderCore
import NFCTags
import PCSC
import TagEmulation

/// `nfctap-bench cli-paths <nfctap binary>`: the APDUs each command (`scan`, `scan --multi`,
/// `inventory`, `pair --handler json`, `readers`, `write`, `write --lock`) sends a tag through the
/// real pcscd + vpcd, counted by the virtual card, next to the minimum: the PC/SC monitor's UID
/// read plus the library's own operations on one fresh connection (through the same reader
/// personality). Needs the private pcscd of scripts/services/pcscd.sh (`PCSCLITE_CSOCK_NAME`).
func cliPathTable(nfctap: String) {
    let reader0 = "Virtual PCD 00 00"
    guard ProcessInfo.processInfo.environment["PCSCLITE_CSOCK_NAME"] != nil,
          (try? PCSCBackend().listReaders())?.contains(where: { $0.name == reader0 }) == true else {
        print("| – | – | – | – | not run: no private pcscd with vpcd |")
        return
    }
    let message = (try? NDEFMessage(records: [.uri("https://nfctap.dev/w")]).encoded()) ?? []
    let written = (try? NDEFMessage(records: [.uri("https://example.com/written")]).encoded()) ?? []
    struct Kind {
        let name: String
        let make: () throws -> VirtualTag
    }
    let uid: [UInt8] = [0x04, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60]
    let kinds = [
        Kind(name: "NTAG213") { try VirtualType2Tag(product: .ntag213, uid: uid, ndef: message) },
        Kind(name: "NTAG215") { try VirtualType2Tag(product: .ntag215, uid: uid, ndef: message) },
        Kind(name: "NTAG216") { try VirtualType2Tag(product: .ntag216, uid: uid, ndef: message) },
        Kind(name: "MIFARE Ultralight") { try VirtualType2Tag(product: .ultralight, uid: uid, ndef: message) },
        Kind(name: "Type 4 v2, 17 B") { VirtualType4Tag(version: .v2, ndef: message) },
        Kind(name: "Type 4 v3, 17 B") { VirtualType4Tag(version: .v3, ndef: message) },
        Kind(name: "Type 4 v2, 4 KB") { VirtualType4Tag.largeMessage(size: 4096) },
        Kind(name: "Type 4 v3, 40 000 B") { VirtualType4Tag.largeMessage(version: .v3, size: 40000) },
    ]
    struct Path {
        let name: String
        let arguments: [String]
        /// Start the command only once pcscd shows the card (commands that do not wait for a tap).
        let needsCardFirst: Bool
        let library: (NDEFTagOperations) throws -> Void
    }
    let read: (NDEFTagOperations) throws -> Void = { _ = try $0.readNDEF() }
    let write: (Bool) -> (NDEFTagOperations) throws -> Void = { lock in
        { ops in
            _ = try ops.queryNDEFStatus()
            try ops.writeNDEF(written)
            _ = try ops.readNDEF()
            if lock {
                try ops.writeLock()
                _ = try ops.queryNDEFStatus()
            }
        }
    }
    let inventoryFile = NSTemporaryDirectory() + "nfctap-bench-inventory-\(getpid()).jsonl"
    defer { try? FileManager.default.removeItem(atPath: inventoryFile) }
    let paths = [
        Path(name: "scan --json", arguments: ["scan", "--json", "--timeout", "20"], needsCardFirst: false, library: read),
        Path(name: "inventory", arguments: ["inventory", "--output", inventoryFile, "--timeout", "2"], needsCardFirst: true,
             library: read),
        Path(name: "readers", arguments: ["readers", "--json"], needsCardFirst: true, library: { _ in }),
        Path(name: "write --uri", arguments: ["write", "--uri", "https://example.com/written", "--timeout", "20"],
             needsCardFirst: false, library: write(false)),
        Path(name: "write --uri --lock", arguments: ["write", "--uri", "https://example.com/written", "--lock", "--timeout", "20"],
             needsCardFirst: false, library: write(true)),
    ]
    print("| command | " + kinds.map(\.name).joined(separator: " | ") + " |")
    print("|---|" + kinds.map { _ in "---" }.joined(separator: "|") + "|")
    for path in paths {
        var cells: [String] = []
        for kind in kinds {
            do {
                let minimum = 1 + (try libraryExchanges(kind.make(), path.library))
                let (status, sent) = try runCommand(nfctap, path.arguments + ["--reader", reader0], tag: kind.make(),
                                                    waitForCard: path.needsCardFirst)
                cells.append(status == 0 ? "\(sent) (\(minimum))" : "exit \(status)")
            } catch {
                cells.append("failed: \(error)")
            }
        }
        print("| `\(path.name)` | " + cells.joined(separator: " | ") + " |")
    }
}

/// Exchanges of the library's operations on a fresh connection through the generic reader.
private func libraryExchanges(_ tag: VirtualTag, _ body: (NDEFTagOperations) throws -> Void) throws -> Int {
    let reader = EmulatedPCSCReader(profile: .generic, tag: tag)
    let transceiver = EmulatedPCSCTransceiver(reader: reader)
    let ops: NDEFTagOperations = tag is VirtualType4Tag
        ? Type4Tag(transceiver: transceiver)
        : Type2Tag(link: PseudoAPDUType2Link(transceiver: transceiver, profile: .generic))
    try body(ops)
    return reader.plan.exchangeCount
}

/// Runs the CLI with `tag` on vpcd's first reader; its exit status and the APDUs the card received.
private func runCommand(_ nfctap: String, _ arguments: [String], tag: VirtualTag, waitForCard: Bool) throws -> (Int32, Int) {
    try waitForReader(present: false)
    let reader = EmulatedPCSCReader(profile: .generic, tag: tag)
    let card = VPCDCard(behaviour: reader)
    try card.insert()
    defer { card.stop() }
    if waitForCard { try waitForReader(present: true) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: nfctap)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    card.remove()
    return (process.terminationStatus, reader.plan.exchangeCount)
}

/// Waits (≤ 10 s) until pcscd reports `Virtual PCD 00 00` with a card, or empty.
func waitForReader(present: Bool) throws {
    let context = try Context()
    for _ in 0..<500 {
        var states = [ReaderState(reader: "Virtual PCD 00 00")]
        try context.getStatusChange(&states, timeout: .zero)
        if states[0].eventState.contains(present ? .present : .empty) { return }
        usleep(20_000)
    }
    throw CLIPathError(description: "pcscd never showed the reader \(present ? "with" : "without") a card")
}

private struct CLIPathError: Error, CustomStringConvertible {
    var description: String
}
