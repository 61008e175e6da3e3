import Foundation
import TagEmulation
import Testing

/// A reader's name comes from a device: USB strings through pcscd, or a libnfc connstring, here a
/// device path a user or another program chose. The CLI shows it escaped like tag text
/// (`SafeText`) on stdout and stderr: a name never retitles, clears or reorders the terminal.
@Suite struct HostileReaderNameTests {
    static let hostileName = "pn\u{1B}]0;owned\u{07}\u{202E}x"
    static let raw: Set<Unicode.Scalar> = ["\u{1B}", "\u{07}", "\u{202E}"]

    /// A symbolic link to the PN532 emulator's terminal, named `hostileName`.
    static func hostileLink(to path: String, in dir: URL) throws -> String {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let link = dir.appendingPathComponent(hostileName).path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        return link
    }

    @Test(.enabled(if: SystemEnvironment.available("libnfc"), "needs libnfc"),
          arguments: [["scan", "--timeout", "20"], ["readers"], ["scan", "--timeout", "20", "--reader", "no such reader"]])
    func aHostileReaderNameIsShownEscaped(arguments: [String]) throws {
        let tag = try VirtualType2Tag(product: .ntag213, uid: ScanVectors.uid(0x9B), ndef: ScanVectors.uriMessage)
        let emulator = PN532Emulator(tag: tag)
        let path = try emulator.start()
        defer { emulator.stop() }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-name-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = try Self.hostileLink(to: path, in: dir)
        let result = try runCLI(arguments, environment: ["LIBNFC_DEVICE": "pn532_uart:\(link)"])
        for (stream, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
            #expect(!text.unicodeScalars.contains { Self.raw.contains($0) }, "\(arguments) \(stream): \(text.debugDescription)")
        }
        let shown = result.stdout + result.stderr
        #expect(shown.contains("pn\\u{1B}]0;owned\\u{7}\\u{202E}x"), "\(arguments): the name is shown, escaped: \(shown.debugDescription)")
    }
}
