// Fuzz target `type4`: the Type 4 capability container parser and `Type4Tag` over a transceiver
// whose replies come from the input.
// fuzz-modules: NFCTags
// fuzz-max-len: 8192
//
// Input: byte 0 picks the operation (low 3 bits: 0 readNDEF, 1 queryNDEFStatus,
// 2 readCapabilityContainer, 3 writeNDEF, 4 writeLock, 5–7 parse the rest as a CC) and bit 3
// turns on extended-length APDUs. writeNDEF then takes its message: a length-prefixed head and
// a 2-byte count of zero bytes appended. The rest are the tag's replies (`FuzzInput.reply()`):
// a length-prefixed piece, or `FE n1 n0 head tail` for head + n zero bytes + tail, so that
// files past offset 7FFF (B1/D7 with offset data objects) are reachable from short inputs.
// When the replies run out the tag is gone (`TagError.tagLost`).
//
// A finding (trap) is: any error other than TagError; a command that is not a well-formed
// CLA 00 APDU; a message read longer than the bytes the tag sent; a CC that does not survive
// `bytes` → `init(bytes:)`; a write whose UPDATE BINARY sequence is not tear-safe (NLEN = 0
// first, the NLEN region untouched until the final NLEN write) or, when it succeeds, does not
// leave exactly the message and its length in the file; a lock that writes anything but FF
// to the CC's write-access byte.
import NDEF
import NFCTags

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzType4(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = input.byte() ?? 0
    let extended = selector & 0x08 != 0
    switch selector & 0x07 {
    case 0: checkRead(input, extended: extended)
    case 1: checkStatus(input, extended: extended)
    case 2: checkReadCC(input, extended: extended)
    case 3: checkWrite(input, extended: extended)
    case 4: checkLock(input, extended: extended)
    default: checkCCParsing(input.rest())
    }
    return 0
}

/// Serves length-prefixed replies from the input and records every command.
final class FuzzTransceiver: Transceiver {
    private var input: FuzzInput
    private(set) var sent: [CommandAPDU] = []
    /// Bytes handed out in replies, status words included.
    private(set) var suppliedBytes = 0

    init(_ input: FuzzInput) { self.input = input }

    func transceive(_ command: [UInt8]) throws(TagError) -> [UInt8] {
        guard let apdu = try? CommandAPDU(bytes: command), apdu.bytes == command, apdu.cla == 0x00 else {
            finding("Type4Tag sent a malformed APDU: \(command.hexString(separator: " "))")
        }
        sent.append(apdu)
        guard let reply = input.reply() else { throw TagError.tagLost }
        suppliedBytes += reply.count
        return reply
    }
}

extension FuzzInput {
    /// Zero bytes, as many as the big-endian `count` bytes say.
    func zeros(count: [UInt8]) -> [UInt8] {
        [UInt8](repeating: 0, count: count.reduce(0) { $0 << 8 | Int($1) })
    }

    /// One tag reply: a length-prefixed piece, or `FE n1 n0 head tail` (head + n zeros + tail).
    mutating func reply() -> [UInt8]? {
        guard !isAtEnd else { return nil }
        guard bytes[offset] == 0xFE else { return lengthPrefixed() }
        _ = byte()
        let n = take(2)
        let head = lengthPrefixed() ?? []
        return head + zeros(count: n) + (lengthPrefixed() ?? [])
    }
}

/// Runs `body`; a TagError is an expected outcome (nil), any other error a finding.
private func checkRead(_ input: FuzzInput, extended: Bool) {
    let channel = FuzzTransceiver(input)
    let tag = Type4Tag(transceiver: channel, extendedLength: extended)
    guard let message = expecting(TagError.self, "readNDEF", { try tag.readNDEF() }) else { return }
    guard message.count <= channel.suppliedBytes else {
        finding("readNDEF returned \(message.count) bytes, the tag sent \(channel.suppliedBytes)")
    }
    if !message.isEmpty, message.count < 3 { finding("readNDEF returned a \(message.count)-byte message") }
}

private func checkStatus(_ input: FuzzInput, extended: Bool) {
    let tag = Type4Tag(transceiver: FuzzTransceiver(input), extendedLength: extended)
    guard let (status, capacity) = expecting(TagError.self, "queryNDEFStatus", { try tag.queryNDEFStatus() }) else { return }
    guard capacity >= 0, status != .notSupported || capacity == 0 else {
        finding("queryNDEFStatus returned \(status) with capacity \(capacity)")
    }
}

private func checkReadCC(_ input: FuzzInput, extended: Bool) {
    let tag = Type4Tag(transceiver: FuzzTransceiver(input), extendedLength: extended)
    guard let cc = expecting(TagError.self, "readCapabilityContainer", { try tag.readCapabilityContainer() }) else { return }
    checkCCRoundTrip(cc)
}

private func checkCCParsing(_ bytes: [UInt8]) {
    guard let cc = expecting(TagError.self, "Type4CapabilityContainer(bytes:)", { try Type4CapabilityContainer(bytes: bytes) }) else { return }
    checkCCRoundTrip(cc)
}

/// A parsed CC writes back to bytes that parse to the same CC; its derived sizes are sane.
private func checkCCRoundTrip(_ cc: Type4CapabilityContainer) {
    guard let again = try? Type4CapabilityContainer(bytes: cc.bytes), again == cc else {
        finding("CC does not survive bytes -> init(bytes:): \(cc.bytes.hexString(separator: " "))")
    }
    guard cc.capacity >= 0, cc.capacity <= cc.maxNDEFFileSize else {
        finding("CC capacity \(cc.capacity) for a file of \(cc.maxNDEFFileSize) bytes")
    }
}

/// One UPDATE BINARY as the tag sees it: file offset and data.
private struct Update {
    let offset: Int
    let data: [UInt8]
}

/// The UPDATE BINARY commands in `sent` (D6 with a 15-bit offset, D7 with `54 03 o o o 53 len data`).
private func updates(in sent: [CommandAPDU]) -> [Update] {
    sent.compactMap { apdu -> Update? in
        switch apdu.ins {
        case 0xD6:
            guard apdu.p1 & 0x80 == 0 else { finding("D6 with P1 bit 8 set: \(apdu)") }
            return Update(offset: Int(apdu.p1) << 8 | Int(apdu.p2), data: apdu.data)
        case 0xD7:
            let d = apdu.data
            guard d.count >= 7, d[0] == 0x54, d[1] == 0x03, d[5] == 0x53 else { finding("malformed D7: \(apdu)") }
            let offset = Int(d[2]) << 16 | Int(d[3]) << 8 | Int(d[4])
            var i = 6
            let length: Int
            switch d[i] {
            case 0x00...0x7F: length = Int(d[i]); i += 1
            case 0x81 where d.count > i + 1: length = Int(d[i + 1]); i += 2
            case 0x82 where d.count > i + 2: length = Int(d[i + 1]) << 8 | Int(d[i + 2]); i += 3
            default: finding("malformed D7 length: \(apdu)")
            }
            guard d.count - i == length else { finding("D7 data object length \(length) for \(d.count - i) bytes: \(apdu)") }
            return Update(offset: offset, data: Array(d[i...]))
        default:
            return nil
        }
    }
}

/// Whether the last SELECT by file ID before each UPDATE chose the CC file (E103).
private func updatesHitCCFile(_ sent: [CommandAPDU]) -> Bool {
    var selected: [UInt8] = []
    for apdu in sent {
        if apdu.ins == 0xA4, apdu.p1 == 0x00 { selected = apdu.data }
        if apdu.ins == 0xD6 || apdu.ins == 0xD7, selected == Type4.ccFileID { return true }
    }
    return false
}

private func checkWrite(_ input: FuzzInput, extended: Bool) {
    var input = input
    let message = (input.lengthPrefixed() ?? []) + input.zeros(count: input.take(2))
    let channel = FuzzTransceiver(input)
    let tag = Type4Tag(transceiver: channel, extendedLength: extended)
    let succeeded = expecting(TagError.self, "writeNDEF", { try tag.writeNDEF(message) }) != nil
    let writes = updates(in: channel.sent)
    if updatesHitCCFile(channel.sent) { finding("writeNDEF wrote to the CC file") }
    if succeeded, writes.isEmpty { finding("writeNDEF succeeded without writing") }
    guard let first = writes.first else { return }
    // Tear safety (specs §2): NLEN = 0 before anything else, the length field untouched until the end.
    let lengthSize = first.data.count
    guard first.offset == 0, lengthSize == 2 || lengthSize == 4, first.data.allSatisfy({ $0 == 0 }) else {
        finding("writeNDEF's first UPDATE is not NLEN = 0: offset \(first.offset), \(first.data.hexString(separator: " "))")
    }
    for (i, w) in writes.enumerated().dropFirst() {
        let isLengthWrite = w.offset == 0 && w.data.count == lengthSize
        if isLengthWrite, i == writes.count - 1 { continue }
        guard w.offset >= lengthSize else {
            finding("writeNDEF UPDATE \(i) at offset \(w.offset) touches the length field before the end")
        }
    }
    guard succeeded else { return }
    if message.isEmpty {
        guard writes.count == 1 else { finding("writing an empty message took \(writes.count) UPDATEs") }
        return
    }
    guard let last = writes.last, writes.count >= 3, last.offset == 0, last.data.count == lengthSize else {
        finding("writeNDEF succeeded without a final length write")
    }
    let written = last.data.reduce(0) { $0 << 8 | Int($1) }
    guard written == message.count else { finding("final NLEN \(written) for a \(message.count)-byte message") }
    var file = [UInt8?](repeating: nil, count: lengthSize + message.count)
    for w in writes.dropFirst().dropLast() {
        guard w.offset + w.data.count <= file.count else {
            finding("UPDATE at \(w.offset) of \(w.data.count) bytes beyond the \(message.count)-byte message")
        }
        for (k, b) in w.data.enumerated() { file[w.offset + k] = b }
    }
    guard file[lengthSize...].map({ $0 ?? 0xFF }) == message, !file[lengthSize...].contains(nil) else {
        finding("the UPDATEs do not put the message in the file")
    }
}

private func checkLock(_ input: FuzzInput, extended: Bool) {
    let channel = FuzzTransceiver(input)
    let tag = Type4Tag(transceiver: channel, extendedLength: extended)
    _ = expecting(TagError.self, "writeLock", { try tag.writeLock() })
    let writes = updates(in: channel.sent)
    guard writes.count <= 1 else { finding("writeLock sent \(writes.count) UPDATEs") }
    if let w = writes.first, !((w.offset == 14 || w.offset == 16) && w.data == [0xFF]) {
        finding("writeLock wrote \(w.data.hexString(separator: " ")) at offset \(w.offset)")
    }
}
