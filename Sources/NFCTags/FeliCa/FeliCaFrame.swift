/// FeliCa command codes (docs/tags-and-readers.md §9.2); each answer's code is the command's + 1.
public enum FeliCaCommandCode {
    public static let polling: UInt8 = 0x00
    public static let requestService: UInt8 = 0x02
    public static let requestResponse: UInt8 = 0x04
    public static let readWithoutEncryption: UInt8 = 0x06
    public static let writeWithoutEncryption: UInt8 = 0x08
    public static let searchServiceCode: UInt8 = 0x0A
    public static let requestSystemCode: UInt8 = 0x0C
    public static let requestServiceV2: UInt8 = 0x32
    public static let requestSpecificationVersion: UInt8 = 0x3C
    public static let resetMode: UInt8 = 0x3E
}

/// FeliCa frames as readers pass them: `LEN CMD [IDm] parameters`, LEN counting itself, the CRC
/// left to the reader (docs/tags-and-readers.md §9.2).
public enum FeliCaFrame {
    /// Largest frame: LEN is one byte.
    public static let maxLength = 255

    /// `LEN code [idm] parameters`.
    /// - Throws: `TagError.unsupported` when the frame would exceed 255 bytes.
    public static func command(_ code: UInt8, idm: [UInt8]?, _ parameters: [UInt8] = []) throws(TagError) -> [UInt8] {
        let body = [code] + (idm ?? []) + parameters
        guard body.count + 1 <= maxLength else {
            throw TagError.unsupported("a FeliCa frame of \(body.count + 1) bytes (at most \(maxLength))")
        }
        return [UInt8(body.count + 1)] + body
    }

    /// Checks an answer's LEN, response code and IDm echo; returns the bytes after them.
    /// - Throws: `TagError.malformedReply` for a short frame, a LEN that disagrees with the
    ///   frame, another response code or another IDm.
    public static func response(_ reply: [UInt8], to code: UInt8, idm: [UInt8]?) throws(TagError) -> [UInt8] {
        let header = 2 + (idm?.count ?? 0)
        guard reply.count >= header else {
            throw TagError.malformedReply("\(reply.count)-byte FeliCa answer to command \(hexByte(code)) (at least \(header))")
        }
        guard Int(reply[0]) == reply.count else {
            throw TagError.malformedReply("FeliCa LEN \(reply[0]) but \(reply.count) bytes arrived")
        }
        guard reply[1] == code &+ 1 else {
            throw TagError.malformedReply("FeliCa answer code \(hexByte(reply[1])) to command \(hexByte(code))")
        }
        if let idm, Array(reply[2..<header]) != idm {
            throw TagError.malformedReply("FeliCa answer from another IDm")
        }
        return Array(reply[header...])
    }

    static func hexByte(_ byte: UInt8) -> String { [byte].hexString(separator: "") + "h" }
}
