import CoreNFCLinux
import Foundation
import NDEF
@testable import NFCTapKit
import NFCTapKitTestSupport
import TagEmulation
import Testing

/// The commands that drive a session by its events (issue 25 item 1) — inventory, pair's wait for
/// a printer, the demo — in-process against the virtual reader backend, with no daemons.
@Suite(.serialized) struct EventRunsTests {
    static func environment(_ backend: VirtualReaderBackend) -> NFCReaderEnvironment {
        NFCReaderEnvironment(makeBackends: { [backend] }, makeNDEFOperations: { try $0.ndefOperations() },
                             slot: NFCSessionSlot())
    }

    static func ntag(_ last: UInt8, uri: String) throws -> VirtualType2Tag {
        try VirtualType2Tag(product: .ntag213, uid: [0x04, 0x10, 0x20, 0x30, 0x40, 0x50, last],
                            ndef: NDEFMessage(records: [.uri(uri)]).encoded())
    }

    @Test("inventory: one record per tap, on disk before the green light; stop() ends run() with 200")
    func inventoryRecordsThenStops() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Desk A", "Desk B"])
        let directory = try TemporaryDirectory()
        let path = directory.path("taps.jsonl")
        let output = try InventoryOutput(path: path, format: .jsonl) { Issue.record("warning: \($0)") }
        let (confirmed, confirm) = AsyncStream.makeStream(of: InventoryRecord.self)
        let recorder = InventoryRecorder(output: output, duplicateWindow: .seconds(3600)) { record, _, _ in confirm.yield(record) }
        let run = InventoryRun(environment: Self.environment(backend), readerFilter: .all, timeLimit: nil) { recorder.handle($0) }
        async let ended = run.run()
        var records = confirmed.makeAsyncIterator()

        _ = backend.place(try Self.ntag(1, uri: "https://example.com/1"), on: "Desk A")
        #expect(await records.next()?.uid == "04102030405001")
        _ = backend.place(try Self.ntag(2, uri: "https://example.com/2"), on: "Desk B")
        #expect(await records.next()?.uid == "04102030405002")
        run.stop(.userCanceled)
        let end = await ended
        #expect(end.code == .readerSessionInvalidationErrorUserCanceled)
        #expect(run.becameActive)
        output.file.close()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(recorder.stats.taps == 2)
        #expect(backend.feedbackLog.map(\.feedback) == [.success, .success])
    }

    @Test("inventory: a stop() before the session began ends it as soon as it starts")
    func inventoryStoppedEarly() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Desk A"])
        let run = InventoryRun(environment: Self.environment(backend), readerFilter: .all, timeLimit: nil) { _ in true }
        run.stop(.signal(SIGTERM))
        #expect(await run.run().code == .readerSessionInvalidationErrorUserCanceled)
    }

    /// The session's reader watchdog (SessionEngine+Watchdog.swift): a reader the service lists but
    /// the monitor never reported (pcsc-lite misses a remove and an add inside one wait) is
    /// re-attached within two checks, said as the service lost and restored, and its tap recorded.
    @Test("inventory: a reader the service lists but the session never heard of is re-attached; its tap is recorded")
    func watchdogReattachesAnUnwatchedReader() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Desk A"])
        let (reports, report) = AsyncStream.makeStream(of: String.self)
        // The time limit ends a run whose watchdog failed: then no tap arrives, instead of a hang.
        let run = InventoryRun(environment: Self.environment(backend), readerFilter: .all, timeLimit: .seconds(15)) {
            report.yield($0.tag.uid.hexString)
            return true
        }
        async let ended = { () async -> NFCReaderError in
            let end = await run.run()
            report.finish()
            return end
        }()
        while !run.becameActive { try await Task.sleep(for: .milliseconds(20)) }
        backend.addReaderUnseen("Desk B")
        _ = backend.place(try Self.ntag(9, uri: "https://example.com/unseen"), on: "Desk B")
        let started = ContinuousClock.now
        var taps = reports.makeAsyncIterator()
        #expect(await taps.next() == "04102030405009")
        #expect(ContinuousClock.now - started < .seconds(8), "within two watchdog checks")
        // Desk A is watched as before.
        _ = backend.place(try Self.ntag(10, uri: "https://example.com/a"), on: "Desk A")
        #expect(await taps.next() == "0410203040500A")
        run.stop(.userCanceled)
        #expect(await ended.code == .readerSessionInvalidationErrorUserCanceled)
    }

    @Test("pair's wait: a tag that is not a printer's is named and shown red, then the printer tag ends the wait")
    func printerWaitSkipsOtherTags() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Desk A"])
        _ = backend.place(try Self.ntag(3, uri: "https://example.com/not-a-printer"), on: "Desk A")
        let waiter = PrinterTapWaiter(console: PairConsole(isTerminal: false), readerFilter: .all, timeout: nil,
                                      environment: Self.environment(backend))
        let placed = Task.detached {
            // The printer's tag comes once the first tag was judged (red).
            while !backend.feedbackLog.contains(where: { $0.feedback == .failure }) { try await Task.sleep(for: .milliseconds(10)) }
            backend.remove(from: "Desk A")
            _ = backend.place(DemoTags.zebraTag(), on: "Desk A")
        }
        guard case let .printer(identity) = await waiter.wait() else {
            Issue.record("the wait did not end with the printer")
            return
        }
        try await placed.value
        #expect(identity.serial == DemoTags.zebraSerial)
        #expect(backend.feedbackLog.map(\.feedback) == [.failure, .success])
    }

    @Test("pair's wait: interrupt() ends it with the signal, before or during the session")
    func printerWaitInterrupted() async throws {
        let backend = VirtualReaderBackend(readerNames: ["Desk A"])
        let waiter = PrinterTapWaiter(console: PairConsole(isTerminal: false), readerFilter: .all, timeout: nil,
                                      environment: Self.environment(backend))
        waiter.interrupt(SIGINT)
        guard case .interrupted(SIGINT) = await waiter.wait() else {
            Issue.record("not interrupted by SIGINT")
            return
        }
    }

    @Test("the demo's tour runs end to end on its virtual reader (read three tags, write one, read it back)")
    func demoTour() async throws {
        try await DemoTour.run(json: true, fast: true)
    }

    @Test("SignalWaiter: a trapped signal is returned, not delivered; without one the timeout gives nil")
    func signalWaiter() async {
        let waiter = SignalWaiter([SIGUSR1])
        kill(getpid(), SIGUSR1)
        #expect(await waiter.next() == SIGUSR1)
        #expect(await SignalWaiter([SIGUSR2]).next(timeout: .milliseconds(20)) == nil)
    }

    @Test("decode: input that is not hex fails with exit status 1 and says why")
    func decodeRefusesBadHex() {
        do {
            try DecodeRun(hex: "zz", file: nil, json: true, relaxed: false).run()
            Issue.record("\"zz\" was decoded")
        } catch {
            #expect(error.status == ExitStatus.failure)
            #expect(error.message == DecodeInputError.invalidHex.description)
        }
    }
}
