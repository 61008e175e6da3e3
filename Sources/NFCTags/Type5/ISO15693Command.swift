import NDEF

/// ISO/IEC 15693-3 command codes and request flags (docs/tags-and-readers.md §7.2).
public enum ISO15693Command: UInt8, Sendable, CaseIterable {
    case inventory = 0x01
    case stayQuiet = 0x02
    case readSingleBlock = 0x20
    case writeSingleBlock = 0x21
    case lockBlock = 0x22
    case readMultipleBlocks = 0x23
    case writeMultipleBlocks = 0x24
    case select = 0x25
    case resetToReady = 0x26
    case writeAFI = 0x27
    case lockAFI = 0x28
    case writeDSFID = 0x29
    case lockDSFID = 0x2A
    case getSystemInfo = 0x2B
    case getMultipleBlockSecurityStatus = 0x2C
    case extendedReadSingleBlock = 0x30
    case extendedWriteSingleBlock = 0x31
    case extendedLockBlock = 0x32
    case extendedReadMultipleBlocks = 0x33
    /// ISO/IEC 15693-3:2019 (docs/tags-and-readers.md §7.12): parameters and answer of `23`, the
    /// answer at the fast (doubled) data rate.
    case fastReadMultipleBlocks = 0x2D
    /// Crypto suite identifier + message (ISO/IEC 29167); the answer may be "in process".
    case authenticate = 0x35
    /// Key identifier + message.
    case keyUpdate = 0x36
    /// Crypto suite identifier + message; the tag does not answer, it fills its buffer.
    case challenge = 0x39
    /// The buffer a Challenge (or an in-process Authenticate) filled.
    case readBuffer = 0x3A
    /// Parameters and answer of `33` at the fast data rate.
    case extendedFastReadMultipleBlocks = 0x3D
}

/// Request flag bits (inventory flag clear), ISO/IEC 15693-3 §7.3.1.
public enum ISO15693RequestFlags {
    /// `01` two sub-carriers.
    public static let dualSubCarrier: UInt8 = 0x01
    /// `02` high data rate: always set by nfctap.
    public static let highDataRate: UInt8 = 0x02
    /// `04` inventory (changes the meaning of bits 5–8).
    public static let inventory: UInt8 = 0x04
    /// `08` protocol extension.
    public static let protocolExtension: UInt8 = 0x08
    /// `10` select: only the selected tag answers.
    public static let select: UInt8 = 0x10
    /// `20` address: the UID (LSB first) follows the command code.
    public static let address: UInt8 = 0x20
    /// `40` option: a block security status byte on reads; on writes and locks the tag answers after
    /// the reader's EOF (TI Tag-it needs it; ST tags refuse it).
    public static let option: UInt8 = 0x40
}

/// Builds request frames (no CRC; docs/tags-and-readers.md §7.1).
public enum ISO15693Frame {
    /// `flags cmd [UID LSB first] params`. `uid` is MSB first, as `ISO15693Link.uid`; it is sent
    /// only when `flags` has the address bit.
    public static func request(_ command: ISO15693Command, flags: UInt8, uid: [UInt8], parameters: [UInt8] = []) -> [UInt8] {
        request(code: command.rawValue, flags: flags, uid: uid, parameters: parameters)
    }

    public static func request(code: UInt8, flags: UInt8, uid: [UInt8], parameters: [UInt8] = []) -> [UInt8] {
        var frame = [flags, code]
        if flags & ISO15693RequestFlags.address != 0, flags & ISO15693RequestFlags.inventory == 0 {
            frame += uid.reversed()
        }
        return frame + parameters
    }

    /// Inventory, one slot, no mask: `26 01 00` (docs/tags-and-readers.md §7.1).
    public static let inventoryOneSlot: [UInt8] = [0x26, 0x01, 0x00]

    /// Splits a request frame into (flags, command, UID MSB first if addressed, parameters).
    /// - Throws: `.malformedReply` (used here for a malformed request) when too short.
    public static func parse(_ frame: [UInt8]) throws(TagError) -> (flags: UInt8, code: UInt8, uid: [UInt8]?, parameters: [UInt8]) {
        guard frame.count >= 2 else { throw TagError.malformedReply("ISO 15693 request of \(frame.count) bytes") }
        let flags = frame[0]
        let addressed = flags & ISO15693RequestFlags.address != 0 && flags & ISO15693RequestFlags.inventory == 0
        guard !addressed || frame.count >= 10 else { throw TagError.malformedReply("addressed ISO 15693 request without its UID") }
        let uid = addressed ? Array(frame[2 ..< 10].reversed()) : nil
        return (flags, frame[1], uid, Array(frame[(addressed ? 10 : 2)...]))
    }

    /// The data of a response, after checking its flags byte.
    /// - Throws: `.iso15693(code:)` when the error flag is set; `.malformedReply` for an empty
    ///   response or an error flag without its code.
    public static func responseData(_ response: [UInt8], for what: String) throws(TagError) -> [UInt8] {
        guard let flags = response.first else { throw TagError.malformedReply("empty ISO 15693 response to \(what)") }
        if flags & 0x01 != 0 {
            guard response.count >= 2 else { throw TagError.malformedReply("ISO 15693 error flag without a code (\(what))") }
            throw TagError.iso15693(code: response[1])
        }
        return Array(response.dropFirst())
    }
}

/// Names the ISO/IEC 15693-3 error codes (response flag `01`; docs/tags-and-readers.md §7.3).
public func iso15693ErrorText(_ code: UInt8) -> String {
    let hex = [code].hexString
    switch code {
    case 0x01: return "\(hex) (command not supported)"
    case 0x02: return "\(hex) (command not recognised)"
    case 0x03: return "\(hex) (option not supported)"
    case 0x0F: return "\(hex) (unknown error)"
    case 0x10: return "\(hex) (block not available)"
    case 0x11: return "\(hex) (block already locked)"
    case 0x12: return "\(hex) (block locked, cannot be changed)"
    case 0x13: return "\(hex) (programming failed)"
    case 0x14: return "\(hex) (lock failed)"
    case 0xA0 ... 0xDF: return "\(hex) (chip-specific)"
    default: return hex
    }
}
