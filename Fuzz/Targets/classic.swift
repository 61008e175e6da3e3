// Fuzz target `classic`: MIFARE Classic's parsers (access bits, MAD1/MAD2, the NDEF area's TLV
// scan) and `MifareClassicTag`'s read over a link whose answers come from the input.
// fuzz-modules: NFCTags
// fuzz-max-len: 4096
//
// Input: byte 0 picks the operation (low 2 bits: 0 access bits, 1 a MAD, 2 a TLV scan of a 1K's
// NDEF area, 3 readNDEF + queryNDEFStatus); the rest is the bytes parsed, or for 3 the card's
// answers: one byte per authentication (even: accepted), 16 bytes per block read.
//
// A finding (trap) is: any error other than TagError; access bits that do not survive `bytes` →
// `init(bytes:)`; a MAD naming a sector the card lacks; a scan whose message lies outside the
// prefix it was given; a message read longer than the bytes the card sent.
import NFCTags

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClassic(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = input.byte() ?? 0
    let layout: MifareClassicLayout = selector & 0x04 == 0 ? .classic1K : .classic4K
    switch selector & 0x03 {
    case 0:
        if let bits = expecting(TagError.self, "MifareClassicAccessBits(bytes:)", { try MifareClassicAccessBits(bytes: input.take(3)) }),
           (try? MifareClassicAccessBits(bytes: bits.bytes)) != bits {
            finding("access bits \(bits.bytes) do not round-trip")
        }
    case 1:
        let gpb = input.byte() ?? 0
        let mad1 = input.take(32), mad2 = input.take(48)
        if let mad = expecting(TagError.self, "MifareApplicationDirectory", {
            try MifareApplicationDirectory(gpb: gpb, mad1: mad1, mad2: mad2.isEmpty ? nil : mad2, layout: layout)
        }), let beyond = mad.entries.keys.first(where: { $0 >= layout.sectorCount || $0 == 0 || $0 == 16 }) {
            finding("the MAD names sector \(beyond) of a \(layout.sectorCount)-sector card")
        }
    case 2:
        let prefix = input.rest()
        guard let area = try? MifareClassicNDEFArea(mad: MifareApplicationDirectory(
            gpb: 0xC1, mad1: MifareApplicationDirectory.ndefFormatted(.classic1K).mad1, layout: .classic1K), layout: .classic1K) else {
            finding("the NDEF-formatted MAD does not parse")
        }
        if case let .message(offset, length)? = expecting(TagError.self, "scan", { try area.scan(prefix) }),
           offset + length > prefix.count || offset + length > area.size {
            finding("a message at \(offset)+\(length) outside a prefix of \(prefix.count) bytes")
        }
    default:
        let link = FuzzClassicLink(input)
        let tag = MifareClassicTag(link: link, layout: layout)
        if let message = expecting(TagError.self, "readNDEF", { try tag.readNDEF() }), message.count > link.served {
            finding("a message of \(message.count) bytes from \(link.served) bytes read")
        }
        _ = expecting(TagError.self, "queryNDEFStatus") { try tag.queryNDEFStatus() }
    }
    return 0
}

/// Answers authentications and block reads from the input; when it runs out the card is gone.
final class FuzzClassicLink: MifareClassicLink {
    var input: FuzzInput
    var served = 0
    init(_ input: FuzzInput) { self.input = input }

    func authenticate(block: Int, key: [UInt8], keyB: Bool) throws(TagError) {
        guard let answer = input.byte() else { throw TagError.tagLost }
        if answer & 1 == 1 { throw TagError.authenticationFailed(sector: block / 4) }
    }

    func readBlock(_ block: Int) throws(TagError) -> [UInt8] {
        let count = Int(input.byte() ?? 0) % 20
        let data = input.take(count)
        guard !data.isEmpty else { throw TagError.tagLost }
        served += data.count
        return data
    }

    func writeBlock(_ block: Int, _ data: [UInt8]) throws(TagError) {
        throw TagError.unsupported("no writes in this target")
    }
}
