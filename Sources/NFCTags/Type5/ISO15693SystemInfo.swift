/// The answer to Get System Information (`2B`), docs/tags-and-readers.md §7.4:
/// `info-flags | UID (8, LSB first) | [DSFID] | [AFI] | [blocks − 1, size − 1] | [IC reference]`.
public struct ISO15693SystemInfo: Sendable, Hashable {
    /// UID, MSB first.
    public var uid: [UInt8]
    public var dsfid: UInt8?
    public var afi: UInt8?
    /// Bytes per block (1–32); nil when the tag did not report its memory size.
    public var blockSize: Int?
    /// Number of blocks (1–256); nil when not reported.
    public var blockCount: Int?
    public var icReference: UInt8?

    public init(uid: [UInt8], dsfid: UInt8? = nil, afi: UInt8? = nil, blockSize: Int? = nil,
                blockCount: Int? = nil, icReference: UInt8? = nil) {
        self.uid = uid
        self.dsfid = dsfid
        self.afi = afi
        self.blockSize = blockSize
        self.blockCount = blockCount
        self.icReference = icReference
    }

    /// Parses the response data (the response flags byte already removed).
    /// - Throws: `.malformedReply` when a field the info flags announce is missing or bytes trail.
    public init(responseData data: [UInt8]) throws(TagError) {
        guard data.count >= 9 else { throw TagError.malformedReply("Get System Info answer of \(data.count) bytes") }
        let info = data[0]
        var i = 9
        func next(_ what: String) throws(TagError) -> UInt8 {
            guard i < data.count else { throw TagError.malformedReply("Get System Info lacks its \(what)") }
            defer { i += 1 }
            return data[i]
        }
        uid = Array(data[1 ..< 9].reversed())
        dsfid = info & 0x01 != 0 ? try next("DSFID") : nil
        afi = info & 0x02 != 0 ? try next("AFI") : nil
        if info & 0x04 != 0 {
            blockCount = Int(try next("block count")) + 1
            // Bits 4–0 are the block size − 1; bits 7–5 are RFU.
            blockSize = Int(try next("block size") & 0x1F) + 1
        } else {
            blockCount = nil
            blockSize = nil
        }
        icReference = info & 0x08 != 0 ? try next("IC reference") : nil
        guard i == data.count else { throw TagError.malformedReply("Get System Info has \(data.count - i) trailing byte(s)") }
    }

    /// The response data this info would be sent as (the emulators answer with it).
    public var responseData: [UInt8] {
        var info: UInt8 = 0
        var tail: [UInt8] = []
        if let dsfid { info |= 0x01; tail.append(dsfid) }
        if let afi { info |= 0x02; tail.append(afi) }
        if let blockCount, let blockSize {
            info |= 0x04
            tail += [UInt8(blockCount - 1), UInt8(blockSize - 1)]
        }
        if let icReference { info |= 0x08; tail.append(icReference) }
        return [info] + uid.reversed() + tail
    }
}
