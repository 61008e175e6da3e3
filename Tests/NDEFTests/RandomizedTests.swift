import Testing
import NDEF
import TestSupport

/// Seeded, deterministic randomized tests: hostile bytes never trap and always give a value or a
/// typed NDEFError; well-formed messages survive encode → decode unchanged.
@Suite struct RandomizedTests {
    /// Valid messages the mutations start from (every framing feature and record type).
    static let seeds: [[UInt8]] = {
        var seeds = FramingVectorTests.vectors.map { h($0.hex) }
        seeds += TextRecordTests.vectors.map { h($0.hex) }
        seeds += TypedRecordTests.vectors.map { h($0.hex) }
        seeds.append(h(SmartPosterTests.full))
        seeds.append(h("D1 01 08 55 04" + a("example")))
        return seeds
    }()

    enum Outcome { case decoded([NDEFRecord]), failed }

    /// Decodes and parses every record. Both throw `NDEFError` only (typed throws: nothing else
    /// can arrive); what is checked here is that they return or throw, never trap or hang.
    static func exercise(_ bytes: [UInt8], _ mode: DecodingMode) -> Outcome {
        do {
            let message = try NDEFMessage(bytes: bytes, mode: mode)
            for record in message.records { _ = try? record.parsed(mode: mode) }
            return .decoded(message.records)
        } catch {
            return .failed
        }
    }

    static func mutate(_ input: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            switch Int.random(in: 0..<7, using: &rng) {
            case 0 where !bytes.isEmpty:  // bit flip
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                bytes[i] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
            case 1 where !bytes.isEmpty:  // truncation
                bytes.removeLast(Int.random(in: 1...bytes.count, using: &rng))
            case 2 where bytes.count > 2:  // edit a length byte (or any early byte) to an extreme or random value
                let i = Int.random(in: 1..<min(bytes.count, 8), using: &rng)
                bytes[i] = [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF, UInt8.random(in: 0...255, using: &rng)].randomElement(using: &rng)!
            case 3:  // insertion
                let i = Int.random(in: 0...bytes.count, using: &rng)
                bytes.insert(contentsOf: (0..<Int.random(in: 1...4, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }, at: i)
            case 4 where !bytes.isEmpty:  // deletion
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                bytes.removeSubrange(i..<min(bytes.count, i + Int.random(in: 1...3, using: &rng)))
            case 5 where !bytes.isEmpty:  // header byte: random flags and TNF
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                bytes[i] = UInt8.random(in: 0...255, using: &rng)
            default:  // duplicate a slice (repeated records, nested-looking data)
                guard !bytes.isEmpty else { bytes = [0xD0, 0x00, 0x00]; break }
                let start = Int.random(in: 0..<bytes.count, using: &rng)
                let end = Int.random(in: start...bytes.count, using: &rng)
                bytes.insert(contentsOf: bytes[start..<end], at: Int.random(in: 0...bytes.count, using: &rng))
            }
        }
        return bytes
    }

    /// 100,000 inputs (90% mutated vectors, 10% pure noise), each through both modes.
    @Test func hostileBytesNeverTrap() {
        var rng = SplitMix64(seed: 0x4E44_4546)
        var decodedStrict = 0, decodedRelaxed = 0
        for n in 0..<100_000 {
            let bytes: [UInt8]
            if n % 10 == 9 {
                bytes = (0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            } else {
                bytes = Self.mutate(Self.seeds.randomElement(using: &rng)!, &rng)
            }
            let strict = Self.exercise(bytes, .strict)
            let relaxed = Self.exercise(bytes, .relaxed)
            if case let .decoded(strictRecords) = strict {
                decodedStrict += 1
                // Relaxed accepts everything strict accepts, with the same records.
                guard case let .decoded(relaxedRecords) = relaxed, relaxedRecords == strictRecords else {
                    Issue.record("strict decoded but relaxed differs for \(bytes.hexString)")
                    continue
                }
                // What strict accepts re-encodes and decodes to the same records.
                do {
                    let again = try NDEFMessage(bytes: NDEFMessage(records: strictRecords).encoded())
                    #expect(again.records == strictRecords)
                } catch {
                    Issue.record("re-encoding a strictly decoded message failed: \(error) for \(bytes.hexString)")
                }
            }
            if case .decoded = relaxed { decodedRelaxed += 1 }
        }
        // The mutations must exercise both outcomes, or the test proves little.
        #expect(decodedStrict > 1_000)
        #expect(decodedRelaxed > decodedStrict)
        #expect(decodedRelaxed < 90_000)
    }

    static func randomBytes(_ count: Int, _ rng: inout SplitMix64) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    static func randomRecord(_ rng: inout SplitMix64) -> NDEFRecord {
        let tnf = TypeNameFormat(rawValue: UInt8.random(in: 0...5, using: &rng))!
        if tnf == .empty { return .empty }
        let type = tnf == .unknown ? [] : randomBytes(Int.random(in: 1...12, using: &rng), &rng)
        let id = Bool.random(using: &rng) ? [] : randomBytes(Int.random(in: 1...8, using: &rng), &rng)
        let length = Int.random(in: 0..<10, using: &rng) == 0 ? Int.random(in: 256...700, using: &rng) : Int.random(in: 0...40, using: &rng)
        return NDEFRecord(tnf: tnf, type: type, id: id, payload: randomBytes(length, &rng))
    }

    /// decode(encode(m)) == m for random well-formed messages, with and without chunking.
    @Test func encodeThenDecodeIsIdentity() throws {
        var rng = SplitMix64(seed: 2024)
        for _ in 0..<2_000 {
            let message = NDEFMessage(records: (0..<Int.random(in: 1...5, using: &rng)).map { _ in Self.randomRecord(&rng) })
            let chunkSize: Int? = Bool.random(using: &rng) ? nil : Int.random(in: 1...300, using: &rng)
            let bytes = try message.encoded(chunkSize: chunkSize)
            #expect(try NDEFMessage(bytes: bytes) == message)
        }
    }

    /// Typed values survive record() → encode → decode → parsed().
    @Test func typedValuesRoundTrip() throws {
        var rng = SplitMix64(seed: 7)
        let alphabet = Array("abcXYZ019 -_/:?&=é€😀\"\\\u{0}\u{7F}")
        func text(_ n: ClosedRange<Int>) -> String {
            String((0..<Int.random(in: n, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
        }
        for _ in 0..<1_000 {
            let encodings: [TextRecord.Encoding] = [.utf8, .utf16BigEndian, .utf16BigEndianWithBOM, .utf16LittleEndianWithBOM]
            // A text starting with U+FEFF would be taken for a BOM: the generator's alphabet has none.
            let values: [ParsedRecord] = [
                .uri(URIRecord(uri: URIPrefixes.all.randomElement(using: &rng)! + text(0...30))),
                .text(TextRecord(text: text(0...30), language: ["en", "de-CH", "x"].randomElement(using: &rng)!,
                                 encoding: encodings.randomElement(using: &rng)!)),
                .androidApplication(AndroidApplicationRecord(packageName: "p" + text(0...10))),
                .smartPoster(SmartPoster(uri: text(0...10), titles: [TextRecord(text: text(0...10), language: "en")],
                                         action: .save, size: UInt32.random(in: 0...UInt32.max, using: &rng), mimeType: "text/html")),
            ]
            for value in values {
                let bytes = try NDEFMessage(records: [value.record()]).encoded()
                #expect(try NDEFMessage(bytes: bytes).records[0].parsed() == value)
            }
        }
    }
}
