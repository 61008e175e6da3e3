import Foundation
import NFCReaders
import NFCTags
import ReaderCore
import TagEmulation
import Testing
import TestSupport

// The cells are defined once, in Tests/TestSupport/FaultMatrix.swift, for both rings.

/// The fault matrix on the libnfc path: `LibNFCBackend` → libnfc's `pn532_uart` driver → the
/// PN532 emulator on a pseudo-terminal → the virtual tag. Every cell connects as the sessions do
/// (`detectTag`, `connect`, `ndefOperations()`), so a fault also exercises the backend's error
/// translation and its re-selection after a failed exchange.
@Suite("Fault matrix: libnfc path (PN532 emulator)",
       .enabled(if: SystemEnvironment.available("libnfc"), "needs libnfc (scripts/services/libnfc.sh)"))
struct FaultMatrixLibNFCTests {
    @Test("every fault at every exchange: typed error or right data, tear-safe, path works again",
          arguments: FaultMatrix.Model.allCases, FaultMatrix.Operation.allCases)
    func matrix(_ model: FaultMatrix.Model, _ operation: FaultMatrix.Operation) throws {
        let rig = try LibNFCMatrixRig()
        defer { rig.close() }
        let (cells, failed) = try FaultMatrix.run(model, operation) { LibNFCMatrixPath(rig: rig, tag: $0) }
        #expect(cells >= FaultMatrix.Fault.allCases.count, "\(model) \(operation): no cells")
        for failure in failed.prefix(20) { Issue.record("libnfc: \(failure)") }
        if failed.count > 20 { Issue.record("libnfc: … \(failed.count - 20) more failed cells") }
        print("fault-matrix cells: libnfc \(model) \(operation): \(cells)")
    }
}

/// One emulator and one backend, shared by the cells of a test (opening libnfc per cell would
/// cost more than the cells themselves).
final class LibNFCMatrixRig: Sendable {
    let emulator: PN532Emulator
    let backend: LibNFCBackend
    let reader: ReaderInfo

    init(linkPath: String? = nil) throws {
        emulator = PN532Emulator(tag: nil, plan: FaultPlan(), linkPath: linkPath)
        let path = try emulator.start()
        backend = LibNFCBackend(devices: ["pn532_uart:\(path)"], environment: [:])
        reader = ReaderInfo(name: "libnfc:pn532_uart:\(path)", backend: .libnfc)
    }

    func close() {
        backend.close()
        emulator.stop()
        // Keep the backend (and its libnfc context) alive until the process ends: releasing it
        // calls nfc_exit, which frees libnfc's process-wide driver list under every other live
        // context (see FaultMatrixReaderLossTests.otherContextEnding).
        Self.retired.withLock { $0.append(backend) }
    }

    private static let retired = Locked<[LibNFCBackend]>([])

    /// Detects the tag in the field and connects to it, as a session does.
    func connect() throws -> TagConnection {
        guard let detected = try backend.detectTag(on: reader) else { throw TagError.tagLost }
        return try backend.connect(to: detected, exclusive: true)
    }
}

/// A tag in the emulator's field, reached through the libnfc backend. Each `operations` call is
/// a new connection (a fresh anticollision and select).
final class LibNFCMatrixPath: FaultMatrixPath {
    let rig: LibNFCMatrixRig
    let tag: VirtualTag
    private var connection: TagConnection?

    init(rig: LibNFCMatrixRig, tag: VirtualTag) {
        self.rig = rig
        self.tag = tag
        rig.emulator.plan.reset()
        rig.emulator.tag = tag
    }

    deinit { connection?.disconnect() }

    var plan: FaultPlan { rig.emulator.plan }
    /// Type 2 answers are bare frames here; ISO-DEP answers are R-APDUs.
    var answersCarryStatusWord: Bool { tag.ats != nil }

    func operations(record: ((ReplyLog) -> Void)?) throws -> NDEFTagOperations {
        connection?.disconnect()
        connection = nil
        if let record {
            let log = ReplyLog()
            record(log)
            rig.emulator.tag = RecordingTag(tag, log: log)
        } else {
            rig.emulator.tag = tag
        }
        let opened = try rig.connect()
        connection = opened
        return try opened.ndefOperations()
    }

    func represent() {
        plan.reset()
        rig.emulator.tag = tag
    }
}

/// Forwards to a virtual tag and records every answer (an unanswered frame as empty), so the
/// matrix can derive short and long answers from the clean run.
// @unchecked: a test fixture: the emulator's one serving thread drives it, the test reads it once the exchanges are over.
final class RecordingTag: VirtualTag, @unchecked Sendable {
    let inner: VirtualTag
    let log: ReplyLog

    init(_ inner: VirtualTag, log: ReplyLog) {
        self.inner = inner
        self.log = log
    }

    var uid: [UInt8] { inner.uid }
    var atqa: [UInt8] { inner.atqa }
    var sak: UInt8 { inner.sak }
    var ats: [UInt8]? { inner.ats }
    func activate() { inner.activate() }

    func respond(to frame: [UInt8]) -> [UInt8]? {
        let reply = inner.respond(to: frame)
        log.replies.append(reply ?? [])
        return reply
    }
}

