import Synchronization
import Testing
@testable import NFCTapKit

/// The kiosk's journald lines: priority prefix, message, sorted key=value, one event per line.
@Suite("Kiosk log lines")
struct KioskLogTests {
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    @Test("priorities follow sd-daemon(3); metadata sorted; quoting only where needed")
    func format() {
        let lines = Lines()
        var logger = KioskLog.logger(level: .trace, sink: { lines.append($0) })
        logger.trace("t")
        logger.debug("d")
        logger.info("tag read", metadata: ["uid": "04A1", "reader": "ACS ACR122U 00", "empty": ""])
        logger.notice("n")
        logger.warning("w", metadata: ["n": "\(3)"])
        logger.error("e", metadata: ["list": ["a", "b c"]])
        logger.critical("c")
        #expect(lines.all == [
            "<7>t\n", "<7>d\n",
            "<6>tag read empty=\"\" reader=\"ACS ACR122U 00\" uid=04A1\n",
            "<5>n\n", "<4>w n=3\n", "<3>e list=\"[a,b c]\"\n", "<2>c\n",
        ])
        logger.logLevel = .warning
        logger.info("not written")
        #expect(lines.all.count == 7)
    }

    @Test("hostile text from a tag or reader stays on one line and cannot forge a priority")
    func hostile() {
        let line = JournalLogHandler.line(level: .info, message: "tag read\n<0>panic",
                                          metadata: ["reader": "A\"B\\C\r\n<2>x", "text": "\u{1B}[2J\u{202E}evil"])
        #expect(line == #"<6>tag read\n<0>panic reader="A\"B\\C\r\n<2>x" text="\u{1B}[2J\u{202E}evil""#)
        #expect(!line.contains("\n"))
    }
}
