import Foundation
import NFCReaders
import NFCTags
import ReaderCore
import TagEmulation
import Testing
import TestSupport

/// A virtual tag that runs `action` when the exchange numbered `trigger` (0-based) reaches it, then
/// answers normally: the reader goes away while that exchange is in the air.
// @unchecked: a test fixture: the emulator's one serving thread drives it, the test reads it once the exchanges are over.
final class TriggeringTag: VirtualTag, @unchecked Sendable {
    let inner: VirtualTag
    var trigger: Int?
    var action: () -> Void = {}
    private var count = 0

    init(_ inner: VirtualTag) { self.inner = inner }

    var uid: [UInt8] { inner.uid }
    var atqa: [UInt8] { inner.atqa }
    var sak: UInt8 { inner.sak }
    var ats: [UInt8]? { inner.ats }
    func activate() { inner.activate() }

    /// Starts counting exchanges again; `trigger` nil disarms.
    func arm(at trigger: Int?, _ action: @escaping () -> Void = {}) {
        self.trigger = trigger
        self.action = action
        count = 0
    }

    func respond(to frame: [UInt8]) -> [UInt8]? {
        defer { count += 1 }
        if count == trigger { action() }
        return inner.respond(to: frame)
    }
}

/// The reader itself disappearing at every exchange of a read and a write: a typed error or the
/// right data, the tag holding old, empty or new afterwards, and the reader working again once it
/// is back (same name, same backend).
@Suite("Fault matrix: reader removed mid-exchange")
struct FaultMatrixReaderLossTests {
    static let models: [FaultMatrix.Model] = [.ntag215, .type4v2]

    /// One operation on the virtual backend with the reader unplugged during exchange `k`.
    /// - Returns: nil when the cell holds, else what broke.
    func virtualCell(_ model: FaultMatrix.Model, _ operation: FaultMatrix.Operation, at k: Int?) throws -> (exchanges: Int, broken: String?) {
        let name = "Matrix Reader 00"
        let backend = VirtualReaderBackend(readerNames: [name], profile: .acr122u)
        let tag = TriggeringTag(try model.makeTag())
        guard let detected = backend.place(tag, on: name) else { return (0, "place failed") }
        let connection = try backend.connect(to: detected, exclusive: true)
        tag.arm(at: k) { backend.removeReader(name) }
        var succeeded = false
        var broken: String?
        do {
            try FaultMatrix.perform(operation, on: try connection.ndefOperations(), model: model)
            succeeded = true
        } catch let error as TagError {
            _ = error // any TagError is a typed error
        } catch let error as ReaderError {
            _ = error
        } catch {
            broken = "untyped error \(type(of: error)): \(error)"
        }
        connection.disconnect()
        let exchanges = backend.reader(named: name)?.plan.exchangeCount ?? -1
        // The reader comes back (a fresh slot when it was removed) and the tag is tapped again.
        tag.arm(at: nil)
        if backend.reader(named: name) == nil { backend.addReader(name, profile: .acr122u) }
        guard let again = backend.place(tag, on: name) else { return (exchanges, "place after re-plugging failed") }
        let read = try backend.connect(to: again, exclusive: true)
        defer { read.disconnect() }
        do {
            let bytes = try read.ndefOperations().readNDEF()
            let (old, new) = (model.oldMessage, model.newMessage)
            switch operation {
            case .read, .lock:
                if bytes != old { broken = broken ?? "re-read: \(FaultMatrix.describe(bytes, old, new))" }
            case .write:
                if succeeded, bytes != new { broken = broken ?? "write succeeded, re-read: \(FaultMatrix.describe(bytes, old, new))" }
                if bytes != old, bytes != new, !bytes.isEmpty { broken = broken ?? "torn: \(FaultMatrix.describe(bytes, old, new))" }
            }
        } catch {
            broken = broken ?? "read after re-plugging failed: \(error)"
        }
        return (exchanges, broken)
    }

    @Test("VirtualReaderBackend.removeReader during every exchange", arguments: models, [FaultMatrix.Operation.read, .write])
    func virtualBackend(_ model: FaultMatrix.Model, _ operation: FaultMatrix.Operation) throws {
        let clean = try virtualCell(model, operation, at: nil)
        #expect(clean.broken == nil)
        #expect(clean.exchanges > 0)
        for k in 0 ..< clean.exchanges {
            let cell = try virtualCell(model, operation, at: k)
            #expect(cell.broken == nil, "\(model) \(operation), reader removed at exchange \(k): \(cell.broken ?? "")")
        }
        print("fault-matrix cells: reader removed, virtual \(model) \(operation): \(clean.exchanges)")
    }

    @Test("the PN532 emulator stopped during every exchange, then started again on the same path",
          .enabled(if: SystemEnvironment.available("libnfc"), "needs libnfc (scripts/services/libnfc.sh)"),
          arguments: models, [FaultMatrix.Operation.read, .write])
    func libnfcEmulatorStopped(_ model: FaultMatrix.Model, _ operation: FaultMatrix.Operation) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let link = directory.appendingPathComponent("ttyPN532").path
        // The clean run gives the number of exchanges.
        var exchanges = 0
        do {
            let rig = try LibNFCMatrixRig(linkPath: link)
            defer { rig.close() }
            let ops = try LibNFCMatrixPath(rig: rig, tag: try model.makeTag()).operations(record: nil)
            rig.emulator.plan.reset()
            try FaultMatrix.perform(operation, on: ops, model: model)
            exchanges = rig.emulator.plan.exchangeCount
        }
        #expect(exchanges > 0)
        for k in 0 ..< exchanges {
            // A fresh emulator and backend per cell, so one cell's outcome cannot leak into the next.
            let rig = try LibNFCMatrixRig(linkPath: link)
            defer { rig.close() }
            let tag = TriggeringTag(try model.makeTag())
            let path = LibNFCMatrixPath(rig: rig, tag: tag)
            let ops = try path.operations(record: nil)
            let stopped = DispatchSemaphore(value: 0)
            // stop() waits for the emulator's thread, which is inside this exchange: stop from elsewhere.
            // The operation may finish before the stop does (the cell then holds the right data).
            tag.arm(at: k) { DispatchQueue.global().async { rig.emulator.stop(); stopped.signal() } }
            rig.emulator.plan.reset()
            var succeeded = false
            do {
                try FaultMatrix.perform(operation, on: ops, model: model)
                succeeded = true
            } catch let error as TagError {
                #expect(error == .readerGone || error == .tagLost, "\(model) \(operation), emulator stopped at \(k): \(error)")
            } catch {
                Issue.record("\(model) \(operation), emulator stopped at \(k): not a TagError: \(type(of: error)) \(error)")
            }
            stopped.wait()
            tag.arm(at: nil)
            try rig.emulator.start()
            // Known gap (reported to the libnfc backend's owner): after some of these stops the
            // backend's libnfc context refuses every reopen of the same connstring ("No driver
            // available to handle pn532_uart:…"), even after `close()`, while a fresh
            // LibNFCContext opens it at once.
            withKnownIssue("LibNFCBackend cannot reopen a device that vanished mid-exchange", isIntermittent: true) {
                let bytes = try Self.reopenAndRead(path, reader: rig.reader)
                let (old, new) = (model.oldMessage, model.newMessage)
                if operation == .read || (operation == .write && succeeded) {
                    #expect(bytes == (operation == .read ? old : new), "\(model) \(operation) stopped at \(k): \(FaultMatrix.describe(bytes, old, new))")
                } else {
                    #expect(bytes == old || bytes == new || bytes.isEmpty, "\(model) \(operation) stopped at \(k): \(FaultMatrix.describe(bytes, old, new))")
                }
            }
        }
        print("fault-matrix cells: emulator stopped, libnfc \(model) \(operation): \(exchanges)")
    }

    /// Reads through a new connection on the same backend. When the device vanished while the
    /// backend was not using it, the first use finds the stale handle: one `readerGone`, then the
    /// backend reopens the device.
    static func reopenAndRead(_ path: LibNFCMatrixPath, reader: ReaderInfo) throws -> [UInt8] {
        do {
            return try path.operations(record: nil).readNDEF()
        } catch let error as ReaderError {
            #expect(error == .readerGone(reader.name))
            return try path.operations(record: nil).readNDEF()
        }
    }

    @Test("one libnfc backend survives the reader vanishing mid-write again and again",
          .enabled(if: SystemEnvironment.available("libnfc"), "needs libnfc (scripts/services/libnfc.sh)"))
    func libnfcRepeatedLoss() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rig = try LibNFCMatrixRig(linkPath: directory.appendingPathComponent("ttyPN532").path)
        defer { rig.close() }
        let model = FaultMatrix.Model.ntag215
        var recovered = 0
        for round in 0 ..< 20 {
            let tag = TriggeringTag(try model.makeTag())
            let path = LibNFCMatrixPath(rig: rig, tag: tag)
            guard let ops = try? Self.reopenAndConnect(path) else { break }
            let stopped = DispatchSemaphore(value: 0)
            tag.arm(at: 10 + round % 8) { DispatchQueue.global().async { rig.emulator.stop(); stopped.signal() } }
            rig.emulator.plan.reset()
            try? ops.writeNDEF(model.newMessage)  // a TagError (typed throws) when the stop cuts it
            stopped.wait()
            tag.arm(at: nil)
            try rig.emulator.start()
            var ok = false
            withKnownIssue("LibNFCBackend cannot reopen a device that vanished mid-exchange", isIntermittent: true) {
                let bytes = try Self.reopenAndRead(path, reader: rig.reader)
                #expect(bytes == model.oldMessage || bytes == model.newMessage || bytes.isEmpty)
                ok = true
            }
            guard ok else { break }
            recovered += 1
        }
        print("libnfc backend recovered from \(recovered) of 20 reader losses in a row")
    }

    static func reopenAndConnect(_ path: LibNFCMatrixPath) throws -> NDEFTagOperations {
        do {
            return try path.operations(record: nil)
        } catch is ReaderError {
            return try path.operations(record: nil)
        }
    }

    /// libnfc 1.8's nfc_exit frees the process-wide driver list, so a context that ended (a backend
    /// released, e.g. by another test or a second backend in the CLI) leaves every other live
    /// context unable to open a device: "No driver available to handle pn532_uart:…". This is
    /// what made reopening fail intermittently when the matrix ran cells in parallel.
    @Test("a libnfc backend still opens its device after another backend was released",
          .enabled(if: SystemEnvironment.available("libnfc"), "needs libnfc (scripts/services/libnfc.sh)"))
    func otherContextEnding() throws {
        let rig = try LibNFCMatrixRig()
        defer { rig.close() }
        rig.emulator.tag = try FaultMatrix.Model.ntag213.makeTag()
        _ = try rig.backend.listReaders() // opens the device: the backend's context exists
        rig.backend.close()               // the next use reopens through the same context
        do {
            let other = LibNFCBackend(devices: ["pn532_uart:/nonexistent/tty"], environment: [:])
            _ = try other.listReaders()   // creates (and on release ends) a second context
        }
        // Fixed: only the last live context calls nfc_exit (LibNFCContext.deinit).
        let ops = try rig.connect().ndefOperations()
        #expect(try ops.readNDEF() == FaultMatrix.Model.ntag213.oldMessage)
    }
}
