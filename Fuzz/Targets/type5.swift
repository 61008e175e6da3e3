// Fuzz target `type5`: `Type5Tag` (ISO 15693 / NFC Forum Type 5) over a link whose answers come
// from the input, and the Type 5 CC and Get System Info parsers.
// fuzz-modules: NFCTags
// fuzz-max-len: 4096
//
// Input: byte 0 picks the operation (low 3 bits: 0 readNDEF, 1 queryNDEFStatus, 2 writeNDEF,
// 3 writeLock, 4 format, 5 parse the rest as a CC, 6 as a Get System Info answer, 7 inspect);
// bit 3 says whether the link passes any command (transparent exchange) or block reads and writes
// only. writeNDEF then takes its message, length-prefixed. The rest are the tag's answers
// (`FuzzInput.lengthPrefixed()`), flags byte included; when they run out the tag is gone.
//
// A finding (trap) is: any error other than TagError; a frame that is not `flags command …`
// with the tag's UID when addressed; a message read longer than the bytes the tag sent; a CC
// that does not survive `bytes` → `init(bytes:)`; a write that does not start and (for a
// non-empty message) end with the TLV header's block(s) (length 0 first, the real length last).
import NDEF
import NFCTags

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzType5(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = input.byte() ?? 0
    let passesAny = selector & 0x08 == 0
    switch selector & 0x07 {
    case 0: checkRead(input, passesAny)
    case 1: checkStatus(input, passesAny)
    case 2: checkWrite(input, passesAny)
    case 3: _ = expecting(TagError.self, "writeLock") { try Type5Tag(link: FuzzISO15693Link(input, passesAny)).writeLock() }
    case 4: _ = expecting(TagError.self, "format") { try Type5Tag(link: FuzzISO15693Link(input, passesAny)).format() }
    case 5: checkCCParsing(input.rest())
    case 6: checkSystemInfo(input.rest())
    default: _ = expecting(TagError.self, "inspect") { try Type5Tag(link: FuzzISO15693Link(input, passesAny)).inspect() }
    }
    return 0
}

/// An NXP ICODE SLIX2's UID; the tag's answers come from the input, every request is recorded.
final class FuzzISO15693Link: ISO15693Link {
    let uid: [UInt8] = [0xE0, 0x04, 0x01, 0x08, 0x49, 0xD0, 0xDC, 0x81]
    let passesAnyCommand: Bool
    private var input: FuzzInput
    private(set) var sent: [[UInt8]] = []
    private(set) var suppliedBytes = 0

    init(_ input: FuzzInput, _ passesAny: Bool) {
        self.input = input
        passesAnyCommand = passesAny
    }

    func transceive(_ frame: [UInt8]) throws(TagError) -> [UInt8] {
        guard frame.count >= 2 else { finding("a request frame of \(frame.count) bytes") }
        // Addressed (flag 20): the UID follows the command code, least significant byte first.
        if frame[0] & 0x20 != 0, frame[0] & 0x04 == 0 {
            guard frame.count >= 10, Array(frame[2 ..< 10]) == uid.reversed() else {
                finding("an addressed frame without the tag's UID: \(frame.hexString(separator: " "))")
            }
        }
        sent.append(frame)
        guard let answer = input.lengthPrefixed() else { throw TagError.tagLost }
        suppliedBytes += answer.count
        return answer
    }
}

/// Runs `body`; a TagError is an expected outcome (nil), any other error a finding.
private func checkRead(_ input: FuzzInput, _ passesAny: Bool) {
    let link = FuzzISO15693Link(input, passesAny)
    guard let message = expecting(TagError.self, "readNDEF", { try Type5Tag(link: link).readNDEF() }) else { return }
    guard message.count <= link.suppliedBytes else {
        finding("readNDEF returned \(message.count) bytes, the tag sent \(link.suppliedBytes)")
    }
}

private func checkStatus(_ input: FuzzInput, _ passesAny: Bool) {
    guard let (status, capacity) = expecting(TagError.self, "queryNDEFStatus", { try Type5Tag(link: FuzzISO15693Link(input, passesAny)).queryNDEFStatus() })
    else { return }
    guard capacity >= 0, status != .notSupported || capacity == 0 else {
        finding("queryNDEFStatus returned \(status) with capacity \(capacity)")
    }
}

private func checkCCParsing(_ bytes: [UInt8]) {
    guard let cc = expecting(TagError.self, "Type5CapabilityContainer(bytes:)", { try Type5CapabilityContainer(bytes: bytes) }) else { return }
    guard let again = try? Type5CapabilityContainer(bytes: cc.bytes), again == cc else {
        finding("CC does not survive bytes -> init(bytes:): \(cc.bytes.hexString(separator: " "))")
    }
    guard cc.dataAreaSize >= 0, cc.length == 4 || cc.length == 8 else { finding("CC of \(cc.length) bytes, area \(cc.dataAreaSize)") }
}

private func checkSystemInfo(_ bytes: [UInt8]) {
    guard let info = expecting(TagError.self, "ISO15693SystemInfo(responseData:)", { try ISO15693SystemInfo(responseData: bytes) }) else { return }
    if let size = info.blockSize, !(1 ... 32).contains(size) { finding("block size \(size)") }
    if let count = info.blockCount, !(1 ... 65536).contains(count) { finding("block count \(count)") }
    guard info.uid.count == 8 else { finding("a UID of \(info.uid.count) bytes") }
}

/// Write Single Block frames (`21`, extended `31`): block number and data.
private func blockWrites(_ sent: [[UInt8]]) -> [(block: Int, data: [UInt8])] {
    sent.compactMap { frame in
        let addressed = frame[0] & 0x20 != 0 && frame[0] & 0x04 == 0
        let at = addressed ? 10 : 2
        switch frame[1] {
        case 0x21 where frame.count > at: return (Int(frame[at]), Array(frame[(at + 1)...]))
        case 0x31 where frame.count > at + 1: return (Int(frame[at]) | Int(frame[at + 1]) << 8, Array(frame[(at + 2)...]))
        default: return nil
        }
    }
}

private func checkWrite(_ input: FuzzInput, _ passesAny: Bool) {
    var input = input
    let message = input.lengthPrefixed() ?? []
    let link = FuzzISO15693Link(input, passesAny)
    let tag = Type5Tag(link: link)
    let succeeded = expecting(TagError.self, "writeNDEF", { try tag.writeNDEF(message) }) != nil
    let writes = blockWrites(link.sent)
    if succeeded, writes.isEmpty { finding("writeNDEF succeeded without writing") }
    guard succeeded, let info = try? tag.inspect(), let cc = info.capabilityContainer else { return }
    // Tear safety (docs/tags-and-readers.md §7.8): the TLV header's block(s) are written first
    // (with length 0) and, for a non-empty message, last (with the real length).
    let headerBytes = message.count >= 0xFF ? 4 : 2
    let headerBlocks = (cc.length / info.blockSize) ... ((cc.length + headerBytes - 1) / info.blockSize)
    guard let first = writes.first, headerBlocks.contains(first.block) else {
        finding("writeNDEF's first Write Single Block is not the TLV header's: \(writes.map(\.block))")
    }
    if !message.isEmpty, let last = writes.last, !headerBlocks.contains(last.block) {
        finding("writeNDEF's last Write Single Block is not the TLV header's: \(writes.map(\.block))")
    }
}
