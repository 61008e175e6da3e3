/// The page writes that replace the NDEF message of a Type 2 tag tear-safely
/// (docs/tags-and-readers.md §1, the NFC Forum procedure nfcpy and ST RFAL follow).
///
/// The first length byte L0 (right after the `03`) is the commit byte: `00` means "empty".
/// 1. The page holding L0 is written with L0 = `00` (and its other bytes already final).
/// 2. Every other changed page, ascending: the `03` when the TLV is new, the rest of a 3-byte
///    length (`FF hi lo` minus the `FF`), the message with reserved bytes skipped, `FE` if it fits.
/// 3. The page holding L0 again, now with the real first length byte (`n`, or `FF` for ≥ FFh).
///
/// Page writes are atomic, so a torn write leaves: the old message (tear before 1 completes),
/// an empty message (between 1 and 3: L0 = `00` whatever follows it), or the new one.
/// Switching between the 1-byte and the 3-byte length is safe for the same reason: only L0 decides,
/// and `hi lo` are written in step 2 while L0 still reads `00`, even when they sit in the next page.
struct Type2WritePlan: Equatable {
    struct PageWrite: Equatable {
        var page: Int
        var data: [UInt8]
    }

    /// Addresses and bytes of the new NDEF TLV (`03`, length, message, optional `FE`).
    let addresses: [Int]
    let bytes: [UInt8]

    /// - Throws: `TagError.messageTooLarge` when the message does not fit after the TLVs before it.
    init(layout: Type2Layout, message: [UInt8]) throws(TagError) {
        let capacity = layout.capacity(at: layout.ndefAddress)
        guard let start = layout.ndefAddress, message.count <= capacity else {
            throw TagError.messageTooLarge(size: message.count, capacity: capacity)
        }
        let n = message.count
        let length: [UInt8] = n < 0xFF ? [UInt8(n)] : [0xFF, UInt8(n >> 8), UInt8(n & 0xFF)]
        var tlv: [UInt8] = [0x03] + length + message
        if layout.usableCount(from: start) > tlv.count { tlv.append(0xFE) }
        addresses = try layout.addresses(from: start, count: tlv.count)
        bytes = tlv
    }

    /// Pages whose current content the plan needs.
    var pages: [Int] { Array(Set(addresses.map { $0 / 4 })).sorted() }

    /// The writes, in order, given the current content of `pages`.
    func writes(current: (Int) -> [UInt8]) -> [PageWrite] {
        var target: [Int: [UInt8]] = [:]
        for page in pages { target[page] = current(page) }
        for (address, byte) in zip(addresses, bytes) { target[address / 4]?[address % 4] = byte }
        if pages.allSatisfy({ target[$0] == current($0) }) { return [] }

        let commit = addresses[1]
        let commitPage = commit / 4
        var staging = target
        staging[commitPage]?[commit % 4] = 0x00

        var out: [PageWrite] = []
        var onTag: [Int: [UInt8]] = [:]
        for page in pages { onTag[page] = current(page) }
        func write(_ page: Int, _ data: [UInt8]) {
            guard onTag[page] != data else { return }
            out.append(PageWrite(page: page, data: data))
            onTag[page] = data
        }
        write(commitPage, staging[commitPage] ?? [])
        for page in pages where page != commitPage { write(page, staging[page] ?? []) }
        write(commitPage, target[commitPage] ?? [])
        return out
    }
}
