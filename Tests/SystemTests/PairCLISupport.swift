import Foundation
import Glibc
import NDEF
import NFCTags
import PCSC
import TagEmulation
import Testing

/// A virtual tag on the test pcscd's second vpcd reader (`Virtual PCD 00 01`), served by the
/// project's emulated PC/SC reader through the vpcd card client, for as long as the value lives.
final class TagOnPCSCD {
    static let reader = TestPCSCD.reader1
    let card: VPCDCard

    /// Waits until pcscd is up and the reader empty, then inserts the tag behind a reader of `profile`.
    init(_ tag: VirtualTag, profile: PCSCReaderProfile = .generic) throws {
        try TestPCSCD.control("start")   // idempotent; another test may have stopped pcscd
        try Self.waitUntilEmpty()
        card = VPCDCard(behaviour: EmulatedPCSCReader(profile: profile, tag: tag), port: TestPCSCD.port1)
        try card.insert()
    }

    deinit {
        card.stop()
        try? Self.waitUntilEmpty()
    }

    /// pcscd notices a removal at its next poll (about 400 ms): wait for it, bounded.
    static func waitUntilEmpty(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let context = try Context()
        for _ in 0..<200 {
            var states = [ReaderState(reader: reader)]
            try context.getStatusChange(&states, timeout: .zero)
            if states[0].eventState.contains(.empty) { return }
            usleep(50_000)
        }
        Issue.record("a card stayed in \(reader)", sourceLocation: sourceLocation)
    }

    /// An NTAG213 holding one URI record.
    static func uriTag(_ uri: String) throws -> VirtualTag {
        try VirtualType2Tag(product: .ntag213, uid: VirtualType2Tag.defaultUID,
                            ndef: NDEFMessage(records: [.uri(uri)]).encoded())
    }
}

/// A scratch directory holding a program for `--handler exec:`: it writes its argv, its
/// NFCTAP_<tag field> variables and its stdin to `record.json`, then exits with $RECORDER_EXIT.
final class ExecRecorder {
    let dir: URL
    var program: String { dir.appendingPathComponent("recorder").path }
    var record: URL { dir.appendingPathComponent("record.json") }

    struct Record: Decodable, Equatable {
        var argv: [String]
        var env: [String: String]
        var stdin: String
    }

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-pair-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let text = """
        #!/usr/bin/python3
        import json, os, sys
        data = sys.stdin.buffer.read().decode("utf-8")
        tags = {"SERIAL", "MODEL", "BT_MAC", "BLE_MAC", "WIFI_MAC", "ETHERNET_MAC", "VERSION"}
        env = {k: v for k, v in os.environ.items() if k.startswith("NFCTAP_") and k[7:] in tags}
        with open(os.path.join(os.path.dirname(sys.argv[0]), "record.json"), "w") as f:
            json.dump({"argv": sys.argv[1:], "env": env, "stdin": data}, f)
        sys.exit(int(os.environ.get("RECORDER_EXIT", "0")))

        """
        // open(O_CLOEXEC): a write descriptor inherited by a program spawned meanwhile would
        // make exec fail with ETXTBSY.
        let fd = open(program, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard Glibc.write(fd, bytes, bytes.count) == bytes.count else { throw POSIXError(.EIO) }
    }

    func read() throws -> Record {
        try JSONDecoder().decode(Record.self, from: Data(contentsOf: record))
    }

    deinit { try? FileManager.default.removeItem(at: dir) }
}
