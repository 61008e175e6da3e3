import CoreNFCLinux
import Foundation
import NDEF
import NFCTapKit
import ReaderCore
import RecordOutput
import TagEmulation
import Testing
import TestSupport

/// A temporary directory removed when the value is dropped.
package final class TemporaryDirectory: Sendable {
    package let url: URL

    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    package func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// RFC 4180 records of a CSV text (the test's own reader, to check what the writer wrote).
package func parseCSV(_ text: String) -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var field = ""
    var quoted = false
    var chars = Array(text.unicodeScalars)[...]
    while let c = chars.popFirst() {
        if quoted {
            if c == "\"" {
                if chars.first == "\"" { chars.removeFirst(); field.unicodeScalars.append("\"") } else { quoted = false }
            } else {
                field.unicodeScalars.append(c)
            }
        } else if c == "\"" {
            quoted = true
        } else if c == "," {
            record.append(field); field = ""
        } else if c == "\r", chars.first == "\n" {
            chars.removeFirst()
            record.append(field); field = ""
            records.append(record); record = []
        } else {
            field.unicodeScalars.append(c)
        }
    }
    if !field.isEmpty || !record.isEmpty { record.append(field); records.append(record) }
    return records
}

/// JSON objects of a JSON Lines text (every line must be one).
package func parseJSONLines(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not an object: \(line)")
    }
}

/// An NTAG213 with one URI or text record.
package func inventoryTag(uid: UInt8, uri: String) throws -> VirtualType2Tag {
    try VirtualType2Tag(product: .ntag213, uid: [0x04, 0x10, 0x20, 0x30, 0x40, 0x50, uid],
                        ndef: NDEFMessage(records: [.uri(uri)]).encoded())
}

package func inventoryTag(uid: UInt8, text: String) throws -> VirtualType2Tag {
    try VirtualType2Tag(product: .ntag213, uid: [0x04, 0x10, 0x20, 0x30, 0x40, 0x50, uid],
                        ndef: NDEFMessage(records: [.text(text, language: "en")]).encoded())
}

/// One in-process inventory: virtual readers, the real session, recorder and output file.
package final class InventoryHarness: Sendable {
    package let backend: VirtualReaderBackend
    package let directory: TemporaryDirectory
    package let path: String
    package let recorder: InventoryRecorder
    package let run: InventoryRun
    /// The record file, closed by `stop()` (a second writer of it in this process is refused while
    /// it is open, as in two processes).
    package let recordFile: DurableRecordFile
    /// Records as the recorder confirmed them (after the sync, before the reader's feedback).
    package let confirmed = DemoInbox<(record: InventoryRecord, complete: Bool)>()
    /// At each confirmation: (feedback signals so far, records in the file).
    package let observed = Locked<[(feedback: Int, fileRecords: Int)]>([])
    /// The recorder's monotonic time, set by the test before each tap.
    package let elapsed = Locked<Duration>(.zero)
    package let warnings: [String]

    package init(readers: [String] = ["Desk A", "Desk B"], format: InventoryFormat = .jsonl,
         file: String = "inventory.jsonl", path: String? = nil, duplicateWindow: Duration = .seconds(5),
         calls: FileCalls = .system) throws {
        backend = VirtualReaderBackend(readerNames: readers)
        directory = try TemporaryDirectory()
        self.path = path ?? directory.path(file)
        var warnings: [String] = []
        let output = try InventoryOutput(path: self.path, format: format, calls: calls) { warnings.append($0) }
        self.recordFile = output.file
        self.warnings = warnings
        let elapsed = self.elapsed
        var clock = InventoryRecorder.Clock.system
        clock.wall = { Date(timeIntervalSince1970: 1_700_000_000.25) }
        clock.monotonic = { elapsed.current }
        let confirmed = self.confirmed, observed = self.observed, backend = self.backend
        let filePath = self.path
        recorder = InventoryRecorder(output: output, duplicateWindow: duplicateWindow, clock: clock) { record, complete, _ in
            let content = (try? String(contentsOfFile: filePath, encoding: .utf8)) ?? ""
            let records = format == .csv ? max(0, parseCSV(content).count - 1) : content.split(separator: "\n").count
            observed.withLock { $0.append((backend.feedbackLog.count, records)) }
            confirmed.put((record, complete))
        }
        let backendRef = backend
        let environment = NFCReaderEnvironment(makeBackends: { [backendRef] }, makeNDEFOperations: { try $0.ndefOperations() },
                                               slot: NFCSessionSlot())
        let recorder = self.recorder
        run = InventoryRun(environment: environment, readerFilter: .all, timeLimit: nil) { recorder.handle($0) }
    }

    package func start() { run.start() }

    /// Puts `tag` on `reader` at `time` (the recorder's monotonic clock) and waits for its record.
    @discardableResult
    package func tap(_ tag: VirtualTag, on reader: String, at time: Duration? = nil) throws -> (record: InventoryRecord, complete: Bool) {
        if let time { elapsed.withLock { $0 = time } }
        backend.place(tag, on: reader)
        return try #require(confirmed.take(before: Date(timeIntervalSinceNow: 10)), "no record for the tap on \(reader)")
    }

    /// Ends the inventory and returns why it ended.
    package func stop() throws -> NFCReaderError {
        run.stop(.userCanceled)
        let ended = try #require(run.wait(timeout: .now() + 10), "the inventory did not end")
        recordFile.close()
        return ended
    }

    package var fileText: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
}

extension FileCalls {
    /// Every write fails as on a full disk (after storing `partial` bytes of the record).
    package static func diskFull(afterWriting partial: Int = 0) -> FileCalls {
        FileCalls(write: { fd, buffer, count in
                      if partial > 0 { _ = FileCalls.system.write(fd, buffer, min(partial, count)) }
                      errno = ENOSPC
                      return -1
                  },
                  sync: FileCalls.system.sync, truncate: FileCalls.system.truncate)
    }
}

extension FileCalls {
    /// The first `times` writes fail as on a full disk (after storing `partial` bytes), later
    /// ones succeed.
    package static func failing(times: Int, afterWriting partial: Int) -> FileCalls {
        let remaining = Locked(times)
        return FileCalls(write: { fd, buffer, count in
                             let fail = remaining.withLock { n -> Bool in
                                 guard n > 0 else { return false }
                                 n -= 1
                                 return true
                             }
                             guard fail else { return FileCalls.system.write(fd, buffer, count) }
                             if partial > 0 { _ = FileCalls.system.write(fd, buffer, min(partial, count)) }
                             errno = ENOSPC
                             return -1
                         },
                         sync: FileCalls.system.sync, truncate: FileCalls.system.truncate)
    }
}
