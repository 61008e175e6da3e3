import Foundation
import Glibc
import Testing
import CoreNFCLinux
@testable import DesktopIntegration

@Suite struct URLSchemePolicyTests {
    @Test(arguments: [
        ("https://example.com/", true), ("HTTP://example.com/", true), ("tel:+4930123", true),
        ("mailto:a@example.com", true),
        ("file:///etc/passwd", false), ("javascript:alert(1)", false), ("smb://host/share", false),
        ("myapp://x", false), ("data:text/html,<b>", false), ("ftp://example.com/", false),
        ("https://exa mple.com/", false), ("https://example.com/\n", false), ("https:", false),
        ("mailto:a@example.com?subject=Hi&body=x", true), ("mailto:a@example.com?attach=/home/u/.ssh/id_rsa", false),
        ("mailto:a@example.com?%61ttachment=%2Fetc%2Fshadow", false),
        ("https://bank.example@evil.example/", false), ("https://bank.example\\@evil.example/", false),
        ("", false), ("no scheme", false), ("1http://x", false),
    ])
    func opensOnlyWebPhoneAndMailWithoutAClaim(_ url: String, _ allowed: Bool) {
        #expect(URLSchemePolicy.mayOpenWithoutClaim(url) == allowed)
    }

    @Test func schemesAreParsedPerRFC3986() {
        #expect(URLSchemePolicy.scheme(of: "coap+tcp://x") == "coap+tcp")
        #expect(URLSchemePolicy.scheme(of: "HTTPS://x") == "https")
        #expect(URLSchemePolicy.scheme(of: "-x:y") == nil)
        #expect(URLSchemePolicy.scheme(of: "é:x") == nil)
        #expect(!URLSchemePolicy.isHandOverSafe("https://x/" + String(repeating: "a", count: 9000)))
    }
}

@Suite struct NotificationTextTests {
    @Test func escapesTheMarkupTheSpecAllows() {
        #expect(NotificationText.escapeMarkup("<b>bold</b> & <a href=\"x\">") == "&lt;b&gt;bold&lt;/b&gt; &amp; &lt;a href=\"x\"&gt;")
        #expect(NotificationText.escapeMarkup("&amp;") == "&amp;amp;")
        #expect(NotificationText.body(lines: ["<i>x</i>", "line 2"], markup: true) == "&lt;i&gt;x&lt;/i&gt;\nline 2")
        #expect(NotificationText.body(lines: ["<i>x</i>"], markup: false) == "<i>x</i>")
    }

    @Test func summaryIsOneBoundedLine() {
        #expect(NotificationText.summary("a\nb\u{1B}[31mc\u{202E}d") == "a b [31mcd")
        let long = NotificationText.summary(String(repeating: "x", count: 500))
        #expect(long.count == NotificationText.maximumSummary && long.hasSuffix("…"))
    }
}

@Suite struct LaunchFilesTests {
    /// A private (0700) directory standing for `XDG_RUNTIME_DIR`; the caller removes it.
    static func makeRuntimeDirectory() throws -> String {
        let runtime = NSTemporaryDirectory() + "nfctap-runtime-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        return runtime
    }

    @Test func payloadFilesArePrivateAndReadBack() throws {
        let runtime = try Self.makeRuntimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let store = try LaunchPayloadStore(environment: ["XDG_RUNTIME_DIR": runtime])
        // URI https://example.com/app/1 then a JSON record.
        let ndef: [UInt8] = [0x91, 0x01, 0x12, 0x55, 0x04] + Array("example.com/app/1".utf8)
            + [0x52, 0x10, 0x07] + Array("application/json".utf8) + Array("{\"a\":1}".utf8)
        let files = try store.write(ndef: ndef, json: "{}")
        var st = stat()
        #expect(stat(files.ndef, &st) == 0 && st.st_mode & 0o777 == 0o600)
        #expect(stat(store.directory, &st) == 0 && st.st_mode & 0o777 == 0o700)
        let message = try NFCNDEFMessage.launchPayload(environment: ["NFCTAP_NDEF_FILE": files.ndef])
        #expect(message.records.count == 2)
        #expect(message.records[0].wellKnownTypeURIPayload()?.absoluteString == "https://example.com/app/1")
        #expect(message.records[1].payload == Data("{\"a\":1}".utf8))
        // Old files go at the next write.
        store.sweep(now: Date().addingTimeInterval(3600))
        #expect(!FileManager.default.fileExists(atPath: files.ndef))
    }

    @Test func launchPayloadErrorsAreTyped() throws {
        #expect(throws: NFCLaunchPayloadError.notLaunchedForTag) { try NFCNDEFMessage.launchPayload(environment: [:]) }
        #expect(throws: NFCLaunchPayloadError.unreadable(path: "/nonexistent/x", errno: ENOENT)) {
            try NFCNDEFMessage.launchPayload(environment: ["NFCTAP_NDEF_FILE": "/nonexistent/x"])
        }
        #expect(throws: NFCLaunchPayloadError.unreadable(path: "/tmp", errno: EINVAL)) {
            try NFCNDEFMessage.launchPayload(environment: ["NFCTAP_NDEF_FILE": "/tmp"])
        }
        let path = NSTemporaryDirectory() + "nfctap-bad-\(UUID().uuidString)"
        defer { unlink(path) }
        try Data([0xD1, 0x01, 0x7F, 0x55]).write(to: URL(fileURLWithPath: path))
        #expect {
            try NFCNDEFMessage.launchPayload(environment: ["NFCTAP_NDEF_FILE": path])
        } throws: { error in
            if case .malformed(path: path, reason: _)? = error as? NFCLaunchPayloadError { return true }
            return false
        }
        try Data(count: NFCNDEFMessage.launchPayloadMaximumSize + 1).write(to: URL(fileURLWithPath: path))
        #expect(throws: NFCLaunchPayloadError.tooLarge(path: path, size: NFCNDEFMessage.launchPayloadMaximumSize + 1)) {
            try NFCNDEFMessage.launchPayload(environment: ["NFCTAP_NDEF_FILE": path])
        }
    }

    @Test func runtimeDirectoryMustBePrivate() throws {
        #expect(throws: LaunchError.self) { try LaunchPayloadStore(environment: [:]) }
        let open = NSTemporaryDirectory() + "nfctap-open-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: open + "/nfctap/launch", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        chmod(open + "/nfctap/launch", 0o755)
        defer { try? FileManager.default.removeItem(atPath: open) }
        #expect(throws: LaunchError.self) { try LaunchPayloadStore(environment: ["XDG_RUNTIME_DIR": open]) }
    }
}
