// Fuzz target `dump`: Flipper Zero `.nfc` files as `nfctap emulate --dump` reads them
// (`FlipperNFCFile.parse`), from anyone's bug report.
// fuzz-modules: NDEF NFCTags
// fuzz-max-len: 16384
//
// Input: the file's bytes (invalid UTF-8 is repaired, as a text file would be decoded).
//
// A finding (trap) is: any error other than TagDumpFileError; a dump whose written text does not
// parse back to the same dump; a Type 2 dump whose page count is not its chip's; an ISO 15693
// dump with blocks of another size than it says.
import NFCTags

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDump(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let text = String(decoding: input.rest(), as: UTF8.self)
    guard let dump = expecting(TagDumpFileError.self, "FlipperNFCFile.parse", { try FlipperNFCFile.parse(text) }) else { return 0 }
    switch dump.memory {
    case let .type2(m):
        if m.pages.count != m.product.totalPages { finding("a \(m.product) dump of \(m.pages.count) pages") }
    case let .iso15693(m):
        if m.blocks.contains(where: { $0 != nil && $0!.count != m.blockSize }) { finding("a block of another size than \(m.blockSize)") }
    case let .mifareClassic(m):
        if m.blocks.count != m.layout.blockCount || m.blocks.contains(where: { $0.count != 16 }) { finding("a Classic dump of the wrong shape") }
    }
    guard let again = expecting(TagDumpFileError.self, "parse(text(of:))", { try FlipperNFCFile.parse(FlipperNFCFile.text(of: dump)) }) else {
        finding("the written dump does not parse")
    }
    // What the text cannot say (an ISO 15693 dump without a security status) is written as its default.
    if case .iso15693 = dump.memory { return 0 }
    if again != dump { finding("the dump does not survive text(of:) → parse") }
    return 0
}
