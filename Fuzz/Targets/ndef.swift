// Fuzz target `ndef`: NDEF message decoding in both modes, re-encoding, typed record views.
// fuzz-modules: NDEF
// fuzz-max-len: 4096
//
// A finding (trap) is: any error other than NDEFError; a message strict decoding accepts but
// relaxed decoding rejects or reads differently; a decoded message that does not encode, or
// encodes (plain and chunked) to bytes that do not decode to the same records; a typed view
// whose `record()` does not parse back to the same view.
import NDEF

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNDEF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    let strict = decode(bytes, .strict)
    let relaxed = decode(bytes, .relaxed)
    if let strict {
        guard let relaxed else { finding("strict decoding accepts what relaxed decoding rejects") }
        guard relaxed.records == strict.records else { finding("strict and relaxed decoding disagree") }
    }
    // Chunk size for the chunked re-encoding: 4...67, so 4 KiB inputs stay under 1024 chunks.
    let chunkSize = 4 + Int(bytes.first ?? 0) % 64
    if let strict {
        checkReencoding(strict, chunkSize: chunkSize, mustEncode: true)
        checkTypedViews(strict, .strict)
    }
    if let relaxed {
        checkReencoding(relaxed, chunkSize: chunkSize, mustEncode: false)
        checkTypedViews(relaxed, .relaxed)
    }
    return 0
}

/// The message, nil for an `NDEFError` (the codec throws nothing else: typed throws).
private func decode(_ bytes: [UInt8], _ mode: DecodingMode) -> NDEFMessage? {
    try? NDEFMessage(bytes: bytes, mode: mode)
}

/// Encodes plain and chunked; what encodes must decode strictly to the same records.
/// Strictly decoded messages must encode (the encoder refuses only what strict decoding rejects).
private func checkReencoding(_ message: NDEFMessage, chunkSize: Int, mustEncode: Bool) {
    for chunk in [nil, chunkSize] {
        let encoded: [UInt8]
        do {
            encoded = try message.encoded(chunkSize: chunk)
        } catch {
            guard case .cannotEncode = error, !mustEncode else {
                finding("a strictly decoded message does not encode (chunk size \(String(describing: chunk))): \(error)")
            }
            continue
        }
        do {
            let again = try NDEFMessage(bytes: encoded, mode: .strict)
            guard again.records == message.records else {
                finding("re-encoded message decodes to other records (chunk size \(String(describing: chunk))): \(encoded.hexString(separator: " "))")
            }
        } catch {
            finding("re-encoded message does not decode (chunk size \(String(describing: chunk))): \(error); \(encoded.hexString(separator: " "))")
        }
    }
}

/// Every record's typed view: an NDEFError or a value whose record parses back to the same value.
private func checkTypedViews(_ message: NDEFMessage, _ mode: DecodingMode) {
    for (index, record) in message.records.enumerated() {
        let view: ParsedRecord
        do {
            view = try record.parsed(mode: mode)
        } catch {
            continue
        }
        let rebuilt: NDEFRecord
        do {
            rebuilt = try view.record()
        } catch {
            // Relaxed views may hold what cannot be written back (e.g. an empty Text language).
            guard mode == .relaxed else { finding("record \(index): a strict view does not encode: \(view)") }
            continue
        }
        do {
            let again = try rebuilt.parsed(mode: mode)
            guard again == view else { finding("record \(index): \(mode) view does not survive record(): \(view) -> \(again)") }
        } catch {
            finding("record \(index): the rebuilt record does not parse (\(mode)): \(error); view \(view)")
        }
    }
}
