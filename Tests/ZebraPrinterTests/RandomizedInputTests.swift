import Testing
import TestSupport
@testable import ZebraPrinter

/// Seeded random and mutated inputs: every one must give a value or a typed error, never a
/// trap, and an accepted URL must really be Zebra's.
@Suite("Randomized inputs to the tag decoder and the ~HS parser")
struct RandomizedInputTests {
    static let iterations = 100_000

    /// Bytes that matter to the parsers, drawn more often than others.
    static let uriAlphabet: [UInt8] = Array("hts:/?#&=%@.wzebracom0123456789abcdefABCDEF:-+[]\\ ".utf8) + [0x00, 0x0A, 0x7F, 0xC3, 0xA9, 0xFF]

    static func mutate(_ input: [UInt8], alphabet: [UInt8], rng: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let pick = Int.random(in: 0..<6, using: &rng)
            let byte = Bool.random(using: &rng) ? alphabet.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
            switch pick {
            case 0 where !bytes.isEmpty:
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = byte
            case 1:
                bytes.insert(byte, at: Int.random(in: 0...bytes.count, using: &rng))
            case 2 where !bytes.isEmpty:
                bytes.remove(at: Int.random(in: 0..<bytes.count, using: &rng))
            case 3 where !bytes.isEmpty:
                bytes.removeLast(Int.random(in: 0...bytes.count, using: &rng))
            case 4 where !bytes.isEmpty:
                let start = Int.random(in: 0..<bytes.count, using: &rng)
                let end = Int.random(in: start...bytes.count, using: &rng)
                bytes.insert(contentsOf: bytes[start..<end], at: Int.random(in: 0...bytes.count, using: &rng))
            default:
                bytes.append(byte)
            }
        }
        return bytes
    }

    /// Independent of the parser: scheme, host, port and path as accepted, compared by hand.
    static let zebraPrefixes: [String] = {
        var out: [String] = []
        for (scheme, port) in [("http", ":80"), ("https", ":443")] {
            for host in ["zebra.com", "www.zebra.com"] {
                for p in ["", port] { out.append("\(scheme)://\(host)\(p)") }
            }
        }
        return out
    }()

    static func looksZebra(_ uri: String) -> Bool {
        let bytes = Array(uri.utf8)
        let marker = Array("/apps/r/nfc?".utf8)
        guard bytes.count >= marker.count,
              let start = (0...(bytes.count - marker.count)).first(where: { Array(bytes[$0..<$0 + marker.count]) == marker })
        else { return false }
        let head = String(decoding: bytes[..<start], as: UTF8.self).lowercased()
        return zebraPrefixes.contains(head)
    }

    @Test func zebraURLDecoder() {
        var rng = SplitMix64(seed: 0x5A45_4252_4154_4147)  // "ZEBRATAG"
        let seeds = RealTags.all.map { Array($0.utf8) }
        var accepted = 0, rejected = 0
        for i in 0..<Self.iterations {
            let bytes: [UInt8]
            if i % 4 == 0 {
                let n = Int.random(in: 0...160, using: &rng)
                bytes = (0..<n).map { _ in Self.uriAlphabet.randomElement(using: &rng)! }
            } else {
                bytes = Self.mutate(seeds.randomElement(using: &rng)!, alphabet: Self.uriAlphabet, rng: &rng)
            }
            let uri = String(decoding: bytes, as: UTF8.self)
            do {
                let id = try ZebraTag.identity(fromURI: uri)
                accepted += 1
                if !Self.looksZebra(uri) || !ZebraTag.isZebraURI(uri) {
                    Issue.record("accepted a non-Zebra URI: \(uri.debugDescription)")
                }
                if id.serial.isEmpty || id.serial.utf8.count > ZebraTag.maxFieldLength
                    || !id.serial.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
                    Issue.record("bad serial from \(uri.debugDescription)")
                }
                for m in [id.bluetooth, id.bluetoothLE, id.wifi, id.ethernet] {
                    if let m, m.isZero || m.bytes.count != 6 { Issue.record("zero MAC from \(uri.debugDescription)") }
                }
                for f in id.otherFields where f.value.unicodeScalars.contains(where: TextCheck.isControlOrFormat) {
                    Issue.record("control character kept from \(uri.debugDescription)")
                }
            } catch is ZebraTagError {
                rejected += 1
            } catch {
                Issue.record("untyped error \(error) for \(uri.debugDescription)")
            }
        }
        #expect(accepted + rejected == Self.iterations)
        // Both outcomes must be exercised for the run to mean anything.
        #expect(accepted > 1_000)
        #expect(rejected > 10_000)
    }

    static let hsAlphabet: [UInt8] = Array("0123456789,K".utf8) + [0x02, 0x03, 0x0D, 0x0A]

    @Test func hostStatusParser() {
        var rng = SplitMix64(seed: 0x7E48_5300_0000_0001)  // "~HS"
        var parsed = 0, rejected = 0, incomplete = 0
        for i in 0..<Self.iterations {
            let bytes: [UInt8]
            if i % 4 == 0 {
                let n = Int.random(in: 0...120, using: &rng)
                bytes = (0..<n).map { _ in Self.hsAlphabet.randomElement(using: &rng)! }
            } else {
                let seed = Bool.random(using: &rng) ? zq630Reply : readyReply
                bytes = Self.mutate(seed, alphabet: Self.hsAlphabet, rng: &rng)
            }
            // One shot.
            var oneShot: PrinterStatus?
            do {
                oneShot = try PrinterStatus(parsing: bytes)
                parsed += 1
                if bytes.filter({ $0 == 0x02 }).count != 3 || bytes.filter({ $0 == 0x03 }).count != 3 {
                    Issue.record("status from a reply without three frames: \(bytes)")
                }
            } catch let e as HostStatusError {
                if case .truncated = e { incomplete += 1 } else { rejected += 1 }
            } catch {
                Issue.record("untyped error \(error)")
            }
            // Streaming, in random chunks: agrees with the one-shot result when that succeeded.
            var parser = HostStatusParser()
            var streamed: PrinterStatus?
            var offset = 0
            do {
                while offset < bytes.count, streamed == nil {
                    let n = Int.random(in: 1...25, using: &rng)
                    let end = min(offset + n, bytes.count)
                    streamed = try parser.feed(Array(bytes[offset..<end]))
                    offset = end
                }
            } catch is HostStatusError {
                streamed = nil
            } catch {
                Issue.record("untyped error \(error)")
            }
            if let oneShot, streamed != oneShot {
                Issue.record("streaming disagrees with one-shot for \(bytes)")
            }
            _ = HostStatusReply.isComplete(bytes)
        }
        #expect(parsed + rejected + incomplete == Self.iterations)
        #expect(parsed > 1_000)
        #expect(rejected > 10_000)
    }
}
