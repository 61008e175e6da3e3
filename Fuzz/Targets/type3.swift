// Fuzz target `type3`: FeliCa commands (`FeliCaTag`) and NFC Forum Type 3 NDEF (`Type3Tag`) over
// a link whose answers come from the input, and the attribute block and Polling answer parsers.
// fuzz-modules: NFCTags
// fuzz-max-len: 4096
//
// Input: byte 0 picks the operation (low 3 bits: 0 readNDEF, 1 queryNDEFStatus, 2 writeNDEF,
// 3 writeLock, 4 requestService + readWithoutEncryption of a transit-card service, 5 parse the
// rest as an attribute block, 6 as a Polling answer, 7 requestSystemCode + requestSpecificationVersion).
// writeNDEF then takes its message, length-prefixed. The rest are the card's answers, whole FeliCa
// frames (`LEN CMD …`, `FuzzInput.lengthPrefixed()`); when they run out the card is gone.
//
// A finding (trap) is: any error other than TagError; a command frame whose LEN byte is not its
// length or that is not addressed to the card's IDm; a message read longer than the bytes the card
// sent; an attribute block that does not survive `bytes` → `init(bytes:)`; a write that does not
// set WriteF (block 0 with byte 9 = 0F) before its first data block and clear it last.
import NDEF
import NFCTags

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzType3(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = input.byte() ?? 0
    switch selector & 0x07 {
    case 0: checkRead(input)
    case 1: _ = expecting(TagError.self, "queryNDEFStatus") { try type3(FuzzFeliCaLink(input)).queryNDEFStatus() }
    case 2: checkWrite(input)
    case 3: _ = expecting(TagError.self, "writeLock") { try type3(FuzzFeliCaLink(input)).writeLock() }
    case 4: checkTransit(input)
    case 5: checkAttributes(input.rest())
    case 6: _ = expecting(TagError.self, "FeliCaPollingResponse(frame:)") { try FeliCaPollingResponse(frame: input.rest()) }
    default: checkSystem(input)
    }
    return 0
}

let fuzzIDm: [UInt8] = [0x01, 0x27, 0x00, 0x5D, 0x2C, 0x1B, 0x0A, 0x39]
/// A FeliCa Lite-S PMm (IC code F1).
let fuzzPMm: [UInt8] = [0x00, 0xF1, 0x00, 0x00, 0x00, 0x01, 0x43, 0x00]

/// Serves whole FeliCa frames from the input and records every command frame.
final class FuzzFeliCaLink: Transceiver {
    private var input: FuzzInput
    private(set) var sent: [[UInt8]] = []
    private(set) var suppliedBytes = 0
    /// The IDm commands must name: the card's, or the one its last Polling answer gave.
    private var idm = fuzzIDm

    init(_ input: FuzzInput) { self.input = input }

    func transceive(_ command: [UInt8]) throws(TagError) -> [UInt8] {
        guard command.count >= 2, Int(command[0]) == command.count else {
            finding("a FeliCa frame whose LEN is not its length: \(command.hexString(separator: " "))")
        }
        // Every command but Polling (00) names the card: IDm after the code.
        if command[1] != 0x00 {
            guard command.count >= 10, Array(command[2 ..< 10]) == idm else {
                finding("a command not addressed to the card's IDm: \(command.hexString(separator: " "))")
            }
        }
        sent.append(command)
        guard let answer = input.lengthPrefixed() else { throw TagError.tagLost }
        suppliedBytes += answer.count
        if command[1] == 0x00, let polled = try? FeliCaPollingResponse(frame: answer) { idm = polled.idm }
        return answer
    }
}

func type3(_ link: FuzzFeliCaLink) -> Type3Tag {
    Type3Tag(feliCa: FeliCaTag(link: link, idm: fuzzIDm, pmm: fuzzPMm, systemCode: [0x12, 0xFC]))
}

/// Runs `body`; a TagError is an expected outcome (nil), any other error a finding.
private func checkRead(_ input: FuzzInput) {
    let link = FuzzFeliCaLink(input)
    guard let message = expecting(TagError.self, "readNDEF", { try type3(link).readNDEF() }) else { return }
    guard message.count <= link.suppliedBytes else {
        finding("readNDEF returned \(message.count) bytes, the card sent \(link.suppliedBytes)")
    }
}

private func checkAttributes(_ bytes: [UInt8]) {
    guard let block = expecting(TagError.self, "Type3AttributeBlock(block:)", { try Type3AttributeBlock(block: bytes) }) else { return }
    guard let again = try? Type3AttributeBlock(block: block.bytes), again == block else {
        finding("attribute block does not survive bytes -> init(bytes:): \(block.bytes.hexString(separator: " "))")
    }
}

/// Write Without Encryption (`08`) frames: the block numbers (2-byte block list elements) and data.
private func blockWrites(_ sent: [[UInt8]]) -> [(block: Int, data: [UInt8])] {
    sent.compactMap { frame -> (Int, [UInt8])? in
        // LEN 08 IDm(8) n(1) services(2n) m(1) elements data(16m)
        guard frame.count > 11, frame[1] == 0x08 else { return nil }
        let services = Int(frame[10])
        let m = 11 + 2 * services
        guard frame.count > m, frame[m] >= 1 else { return nil }
        let element = m + 1
        guard frame.count >= element + 2 else { return nil }
        let long = frame[element] & 0x80 == 0
        let block = long ? Int(frame[element + 1]) | Int(frame.count > element + 2 ? frame[element + 2] : 0) << 8 : Int(frame[element + 1])
        let dataStart = element + (long ? 3 : 2) * Int(frame[m])
        guard frame.count >= dataStart + 16 else { return nil }
        return (block, Array(frame[dataStart ..< dataStart + 16]))
    }
}

private func checkWrite(_ input: FuzzInput) {
    var input = input
    let message = input.lengthPrefixed() ?? []
    let link = FuzzFeliCaLink(input)
    let succeeded = expecting(TagError.self, "writeNDEF", { try type3(link).writeNDEF(message) }) != nil
    let writes = blockWrites(link.sent)
    guard succeeded else {
        // Torn anywhere: no data block may have been written before block 0 had WriteF set.
        if let firstData = writes.firstIndex(where: { $0.block != 0 }) {
            guard writes[..<firstData].contains(where: { $0.block == 0 && $0.data[9] == 0x0F }) else {
                finding("a data block was written before WriteF was set: \(writes.map(\.block))")
            }
        }
        return
    }
    guard let first = writes.first, first.block == 0, first.data[9] == 0x0F,
          let last = writes.last, last.block == 0, last.data[9] == 0x00 else {
        finding("writeNDEF does not set WriteF first and clear it last: \(writes.map { "\($0.block):\($0.data[9])" })")
    }
}

private func checkTransit(_ input: FuzzInput) {
    let tag = FeliCaTag(link: FuzzFeliCaLink(input), idm: fuzzIDm, pmm: fuzzPMm)
    _ = expecting(TagError.self, "requestService") { try tag.requestService(nodeCodes: [[0x0F, 0x09], [0x8B, 0x00]]) }
    _ = expecting(TagError.self, "readWithoutEncryption") {
        try tag.readWithoutEncryption(serviceCodes: [[0x0F, 0x09]], blockList: [[0x80, 0x00], [0x80, 0x01]])
    }
    _ = expecting(TagError.self, "readBlocks") { try tag.readBlocks([0, 1, 2, 3], service: 0x000B) }
}

private func checkSystem(_ input: FuzzInput) {
    let tag = FeliCaTag(link: FuzzFeliCaLink(input), idm: fuzzIDm, pmm: fuzzPMm)
    _ = expecting(TagError.self, "requestSystemCode") { try tag.requestSystemCode() }
    _ = expecting(TagError.self, "requestSpecificationVersion") { try tag.requestSpecificationVersion() }
    _ = expecting(TagError.self, "polling") { try tag.polling(systemCode: [0xFF, 0xFF]) }
    _ = expecting(TagError.self, "requestServiceV2") { try tag.requestServiceV2(nodeCodes: [[0x0B, 0x00]]) }
}
