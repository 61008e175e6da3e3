// Fuzz target `host-status`: the `~HS` reply parser, one-shot and streaming, and SGD replies.
// fuzz-modules: ZebraPrinter
// fuzz-max-len: 1024
//
// Input: byte 0 bit 7 set → the rest is an SGD getvar reply for `SGD.parseValue`. Otherwise
// byte 0 mod 8 = n, the next n bytes are chunk sizes (used in turn; 0 is an empty chunk), and the
// rest is the printer's byte stream.
//
// A finding (trap) is: any error other than HostStatusError / SGDError; a streaming parse (the
// stream fed in chunks, pending bytes drained with `feed([])`) that disagrees with a parse of the
// whole stream fed at once, up to and including the first error (the parser works byte by byte,
// so chunking must not matter); `PrinterStatus(parsing:)` accepting bytes the streaming parser
// reads differently; an SGD value holding a quote or a control character.
import NDEF
import ZebraPrinter

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHostStatus(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = input.byte() ?? 0
    if selector & 0x80 != 0 {
        checkSGD(input.rest())
        return 0
    }
    let sizes = input.take(Int(selector % 8)).map(Int.init)
    let stream = input.rest()
    let whole = outcomes(feeding: [stream])
    let chunked = outcomes(feeding: chunks(of: stream, sizes: sizes))
    guard whole == chunked else {
        finding("chunked parsing (sizes \(sizes)) gives \(chunked), whole gives \(whole)")
    }
    checkOneShot(stream, streamed: whole)
    return 0
}

/// What a parser reports: statuses in order, then the first error (parsing stops there).
enum Outcome: Equatable {
    case status(PrinterStatus)
    case error(HostStatusError)
}

private func chunks(of stream: [UInt8], sizes: [Int]) -> [[UInt8]] {
    // No sizes, or only zeros (empty chunks forever): the stream in one piece.
    guard sizes.contains(where: { $0 > 0 }) else { return [stream] }
    var out: [[UInt8]] = []
    var i = 0, k = 0
    while i < stream.count {
        let n = min(sizes[k % sizes.count], stream.count - i)
        out.append(Array(stream[i..<(i + n)]))
        i += n
        k += 1
    }
    return out
}

private func outcomes(feeding pieces: [[UInt8]]) -> [Outcome] {
    var parser = HostStatusParser()
    var out: [Outcome] = []
    for piece in pieces {
        do {
            var status = try parser.feed(piece)
            // Drain replies kept from this piece; each feed([]) returns at most one.
            var rounds = 0
            while let s = status {
                out.append(.status(s))
                rounds += 1
                if rounds > piece.count + 1 { finding("feed([]) keeps returning statuses") }
                status = try parser.feed([])
            }
        } catch let error as HostStatusError {
            out.append(.error(error))
            return out
        } catch {
            finding("feed threw a non-HostStatusError: \(error)")
        }
    }
    return out
}

private func checkOneShot(_ stream: [UInt8], streamed: [Outcome]) {
    do {
        let status = try PrinterStatus(parsing: stream)
        guard streamed == [.status(status)] else {
            finding("PrinterStatus(parsing:) accepted a reply the stream reads as \(streamed)")
        }
        _ = status.summary
    } catch is HostStatusError {
        return
    } catch {
        finding("PrinterStatus(parsing:) threw a non-HostStatusError: \(error)")
    }
}

private func checkSGD(_ reply: [UInt8]) {
    do {
        let value = try SGD.parseValue(reply)
        guard !value.contains("\""), !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            finding("SGD value \(value.debugDescription)")
        }
    } catch is SGDError {
        return
    } catch {
        finding("SGD.parseValue threw a non-SGDError: \(error)")
    }
}
