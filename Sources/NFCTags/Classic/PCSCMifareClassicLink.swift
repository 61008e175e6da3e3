/// MIFARE Classic through a PC/SC reader's Part 3 storage-card commands (PC/SC Part 3 §3.2.2.1):
///
/// - Load Keys `FF 82 P1 P2 06 key`: P1 the key structure (`00` volatile memory on ACS and
///   Identiv readers; `20` on HID OMNIKEY, whose volatile slots it requires), P2 the key number:
///   `00` holds the key A in use, `01` the key B. A key is loaded only when its slot holds another.
/// - General Authenticate `FF 86 00 00 05 01 00 block 60|61 P2`: `63 00` is a refused key. The
///   card halts after one (MF1S50 §8.5), and not every reader wakes it: `recover` (the
///   connection's SCardReconnect with a card reset) re-activates it before the next key is tried.
/// - READ BINARY `FF B0 00 block 10`, UPDATE BINARY `FF D6 00 block 10 data`.
///
/// These sequences follow the specification and the vendors' manuals as their issue trackers
/// quote them; a trace (`--trace`) shows what a reader did.
public final class PCSCMifareClassicLink: MifareClassicLink {
    public let transceiver: Transceiver
    public let profile: PCSCReaderProfile
    /// What each key slot holds on this connection.
    private var loaded: [UInt8: [UInt8]] = [:]
    private let recover: () throws(TagError) -> Void

    public init(transceiver: Transceiver, profile: PCSCReaderProfile, recover: @escaping () throws(TagError) -> Void = {}) {
        self.transceiver = transceiver
        self.profile = profile
        self.recover = recover
    }

    var keyStructure: UInt8 { profile.family == .omnikey ? 0x20 : 0x00 }

    public func authenticate(block: Int, key: [UInt8], keyB: Bool) throws(TagError) {
        guard key.count == 6, (0...0xFF).contains(block) else { throw TagError.unsupported("a key of \(key.count) bytes for block \(block)") }
        let slot: UInt8 = keyB ? 0x01 : 0x00
        if loaded[slot] != key {
            loaded[slot] = nil
            try expectOK(transceiver.transceive([0xFF, 0x82, keyStructure, slot, 0x06] + key), "Load Keys")
            loaded[slot] = key
        }
        let reply = try transceiver.transceive([0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, UInt8(block), keyB ? 0x61 : 0x60, slot])
        if reply == [0x63, 0x00] {
            try recover()
            throw TagError.authenticationFailed(sector: block < 128 ? block / 4 : 32 + (block - 128) / 16)
        }
        try expectOK(reply, "General Authenticate")
    }

    public func readBlock(_ block: Int) throws(TagError) -> [UInt8] {
        let reply = try transceiver.transceive([0xFF, 0xB0, 0x00, UInt8(block), 0x10])
        guard reply.count >= 2 else { throw TagError.malformedReply("READ BINARY reply of \(reply.count) bytes") }
        try expectOK(Array(reply.suffix(2)), "READ BINARY")
        return Array(reply.dropLast(2))
    }

    public func writeBlock(_ block: Int, _ data: [UInt8]) throws(TagError) {
        guard data.count == 16 else { throw TagError.unsupported("a block write of \(data.count) bytes") }
        try expectOK(transceiver.transceive([0xFF, 0xD6, 0x00, UInt8(block), 0x10] + data), "UPDATE BINARY")
    }

    private func expectOK(_ reply: [UInt8], _ what: String) throws(TagError) {
        guard reply.count >= 2 else { throw TagError.malformedReply("\(what) reply of \(reply.count) bytes") }
        let (sw1, sw2) = (reply[reply.count - 2], reply[reply.count - 1])
        guard (sw1, sw2) == (0x90, 0x00) else { throw TagError.status(sw1: sw1, sw2: sw2) }
    }
}
