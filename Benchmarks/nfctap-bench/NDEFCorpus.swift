// The NDEF decode corpus shared with the Python peer (Benchmarks/peers/ndeflib_decode.py):
// a file of messages, each as a 4-byte big-endian length then the message bytes.
import Foundation
import NDEF

/// Varied messages: URI (every prefix family), Text (UTF-8, and UTF-16 with a BOM: ndeflib cannot
/// decode BOM-less UTF-16, which the RTD defines as big-endian; several languages), Smart
/// Posters with titles and actions, MIME (vCard, JSON, binary), external types, multi-record
/// messages, and chunked encodings of long payloads. Deterministic: the same file every run.
func corpusMessages() throws -> [[UInt8]] {
    var messages: [[UInt8]] = []
    var seed: UInt64 = 0x2545F4914F6CDD1D
    func next() -> Int {
        seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
        return Int(seed % 1_000_000)
    }
    let hosts = ["www.zebra.com/apps/r/nfc?mE=000000000000&mB=cc78ab3ebae0", "nfctap.dev/t/", "example.org/a/b?c=d",
                 "tel:+4930123456", "mailto:info@example.com", "urn:nfc:sn:123456"]
    let words = ["NFC", "tag", "printer", "ZQ320", "Grüße", "日本語のテキスト", "مرحبا", "kiosk", "tap"]
    for i in 0 ..< 400 {
        let text = (0 ..< (1 + next() % 30)).map { _ in words[next() % words.count] }.joined(separator: " ")
        let uri = ["https://", "http://www.", ""][i % 3] + hosts[next() % hosts.count] + String(next())
        let blob = (0 ..< (next() % 600)).map { _ in UInt8(truncatingIfNeeded: next()) }
        let message: NDEFMessage
        var chunk: Int? = nil
        switch i % 8 {
        case 0: message = NDEFMessage(records: [.uri(uri)])
        case 1: message = NDEFMessage(records: [try .text(text, language: ["en", "de", "ja"][i % 3])])
        case 2: message = NDEFMessage(records: [try .text(text, language: "en-US", encoding: .utf16BigEndianWithBOM)])
        case 3:
            let poster = SmartPoster(uri: uri, titles: [TextRecord(text: text, language: "en")], action: .open)
            message = NDEFMessage(records: [try poster.record()])
        case 4: message = NDEFMessage(records: [.mime("text/vcard", Array("BEGIN:VCARD\nVERSION:3.0\nFN:\(text)\nEND:VCARD\n".utf8))])
        case 5: message = NDEFMessage(records: [.mime("application/json", Array("{\"t\":\"\(text)\",\"n\":\(next())}".utf8)),
                                                .external("nfctap.dev:bench", blob)])
        case 6:
            message = NDEFMessage(records: [.mime("application/octet-stream", blob + blob + blob)])
            chunk = 64 // chunked: every payload over 64 bytes in CF chunks
        default:
            message = NDEFMessage(records: [.uri(uri), try .text(text, language: "en"), .androidApplication("com.zebra.printersetup")])
        }
        messages.append(try message.encoded(chunkSize: chunk))
    }
    return messages
}

/// Writes the corpus file.
func writeCorpus(path: String) {
    do {
        var file: [UInt8] = []
        let messages = try corpusMessages()
        for m in messages {
            let n = m.count
            file += [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + m
        }
        try Data(file).write(to: URL(fileURLWithPath: path))
        print("messages \(messages.count) bytes \(file.count - 4 * messages.count)")
    } catch {
        print("error \(error)")
        exit(1)
    }
}

/// Reads the corpus and decodes it repeatedly for about `seconds`: framing alone
/// (`NDEFMessage(bytes:)`) and framing + typed payloads (`parsed()` on every record, what ndeflib
/// does for its known types). Prints `framing_mbps F parsed_mbps P messages N bytes B`.
func decodeThroughput(path: String, seconds: Double) {
    guard let data = FileManager.default.contents(atPath: path) else {
        print("error cannot read \(path)")
        exit(1)
    }
    let bytes = [UInt8](data)
    var messages: [[UInt8]] = []
    var i = 0
    while i + 4 <= bytes.count {
        let n = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
        guard i + 4 + n <= bytes.count else { break }
        messages.append(Array(bytes[(i + 4) ..< (i + 4 + n)]))
        i += 4 + n
    }
    let total = messages.reduce(0) { $0 + $1.count }
    func rate(parse: Bool) -> Double {
        let clock = ContinuousClock()
        var rounds = 0
        var records = 0
        let start = clock.now
        while milliseconds(clock.now - start) < seconds * 1000 {
            for m in messages {
                guard let message = try? NDEFMessage(bytes: m) else { continue }
                records += message.records.count
                if parse { for r in message.records { _ = try? r.parsed() } }
            }
            rounds += 1
        }
        let elapsed = milliseconds(clock.now - start) / 1000
        return Double(total * rounds) / elapsed / 1e6
    }
    let failures = messages.filter { (try? NDEFMessage(bytes: $0)) == nil }.count
    print("framing_mbps \(rate(parse: false)) parsed_mbps \(rate(parse: true)) messages \(messages.count) bytes \(total) failures \(failures)")
}
