import NDEF

/// The capability container file (E103) of an NFC Forum Type 4 tag (docs/tags-and-readers.md §2).
///
/// v2.0 (also used by legacy v1.0 tags), 15 bytes:
/// `CCLEN(2) | 20 | MLe(2) | MLc(2) | 04 06 | fileID(2) | maxSize(2) | read | write`;
/// v3.0, 17 bytes: `CCLEN(2) | 30 | MLe(2) | MLc(2) | 06 08 | fileID(2) | maxSize(4) | read | write`,
/// where the NDEF file starts with a 4-byte ENLEN instead of the 2-byte NLEN.
public struct Type4CapabilityContainer: Equatable, Hashable, Sendable {
    /// Bytes a v2.0 CC has; a v3.0 CC has `v3Length`.
    public static let v2Length = 15
    public static let v3Length = 17

    /// CCLEN: the size of the CC file as the tag states it.
    public let ccLength: Int
    /// Mapping version byte: `10`, `20` or `30`.
    public let mappingVersion: UInt8
    /// MLe: most bytes one READ BINARY may return.
    public let maxResponseLength: Int
    /// MLc: most bytes one UPDATE BINARY may carry.
    public let maxCommandLength: Int
    /// File identifier of the NDEF file.
    public let ndefFileID: [UInt8]
    /// Size of the NDEF file, NLEN/ENLEN included.
    public let maxNDEFFileSize: Int
    public let readAccess: Type4AccessCondition
    public let writeAccess: Type4AccessCondition

    /// Builds a CC (for emulated tags and tests); no validation.
    public init(mappingVersion: UInt8, maxResponseLength: Int, maxCommandLength: Int, ndefFileID: [UInt8] = [0xE1, 0x04],
                maxNDEFFileSize: Int, readAccess: Type4AccessCondition = .granted, writeAccess: Type4AccessCondition = .granted) {
        self.mappingVersion = mappingVersion
        self.ccLength = mappingVersion >> 4 >= 3 ? Self.v3Length : Self.v2Length
        self.maxResponseLength = maxResponseLength
        self.maxCommandLength = maxCommandLength
        self.ndefFileID = ndefFileID
        self.maxNDEFFileSize = maxNDEFFileSize
        self.readAccess = readAccess
        self.writeAccess = writeAccess
    }

    /// Parses and validates a CC read from a tag: the first `v2Length` bytes, or `v3Length` for v3.0.
    ///
    /// - Throws: `TagError.invalidTagData` when it is too short, CCLEN is too small, MLe < 0F,
    ///   MLc < 0D, the file control TLV is not `04 06` (v2) / `06 08` (v3), the file ID is
    ///   reserved, or the NDEF file is smaller than 5 bytes (NLEN + a 3-byte message) or larger than
    ///   the mapping allows; `TagError.unsupported` for a major mapping version other than 1, 2, 3.
    public init(bytes: [UInt8]) throws(TagError) {
        guard bytes.count >= Self.v2Length else {
            throw TagError.invalidTagData("capability container of \(bytes.count) bytes, at least 15 needed")
        }
        let version = bytes[2]
        let major = version >> 4
        let v3: Bool
        switch major {
        case 1, 2: v3 = false
        case 3: v3 = true
        default: throw TagError.unsupported("Type 4 mapping version \(major).\(version & 0x0F)")
        }
        let needed = v3 ? Self.v3Length : Self.v2Length
        let cclen = Int(bytes[0]) << 8 | Int(bytes[1])
        guard cclen >= needed else {
            throw TagError.invalidTagData("CCLEN \(cclen) is below \(needed) for mapping version \(major).\(version & 0x0F)")
        }
        guard bytes.count >= needed else {
            throw TagError.invalidTagData("capability container of \(bytes.count) bytes, \(needed) needed")
        }
        let mle = Int(bytes[3]) << 8 | Int(bytes[4])
        let mlc = Int(bytes[5]) << 8 | Int(bytes[6])
        guard mle >= 0x0F else { throw TagError.invalidTagData("MLe \(mle) is below 15") }
        guard mlc >= 0x0D else { throw TagError.invalidTagData("MLc \(mlc) is below 13") }
        // NDEF File Control TLV (04 06) or, for v3.0, ENDEF File Control TLV (06 08).
        let (tag, length): (UInt8, UInt8) = v3 ? (0x06, 0x08) : (0x04, 0x06)
        guard bytes[7] == tag, bytes[8] == length else {
            throw TagError.invalidTagData("file control TLV is \([bytes[7], bytes[8]].hexString(separator: " ")), expected \([tag, length].hexString(separator: " "))")
        }
        let fileID = [bytes[9], bytes[10]]
        guard !Type4.reservedFileIDs.contains(fileID) else {
            throw TagError.invalidTagData("NDEF file ID \(fileID.hexString) is reserved")
        }
        let size: Int
        let access: Int
        if v3 {
            size = Int(bytes[11]) << 24 | Int(bytes[12]) << 16 | Int(bytes[13]) << 8 | Int(bytes[14])
            access = 15
            guard (5...0xFFFF_FFFE).contains(size) else {
                throw TagError.invalidTagData("ENDEF file size \(size) is outside 5...FFFFFFFEh")
            }
        } else {
            size = Int(bytes[11]) << 8 | Int(bytes[12])
            access = 13
            guard (5...0xFFFE).contains(size) else {
                throw TagError.invalidTagData("NDEF file size \(size) is outside 5...FFFEh")
            }
        }
        ccLength = cclen
        mappingVersion = version
        maxResponseLength = mle
        maxCommandLength = mlc
        ndefFileID = fileID
        maxNDEFFileSize = size
        readAccess = Type4AccessCondition(byte: bytes[access])
        writeAccess = Type4AccessCondition(byte: bytes[access + 1])
    }

    /// Major mapping version (1, 2 or 3).
    public var majorVersion: Int { Int(mappingVersion >> 4) }

    /// True for mapping 3.0: 4-byte ENLEN, offsets beyond 7FFF through B1/D7.
    public var usesExtendedNDEFLength: Bool { majorVersion >= 3 }

    /// Size of the length field at the start of the NDEF file: 2 (NLEN) or 4 (ENLEN).
    public var lengthFieldSize: Int { usesExtendedNDEFLength ? 4 : 2 }

    /// Largest NDEF message the file holds: maxSize − 2 (or − 4 for v3.0, whose 3-byte offset
    /// data object addresses at most 16 MiB, so larger files count as 16 MiB).
    public var capacity: Int {
        let addressable = usesExtendedNDEFLength ? Type4.maxODOOffset + 1 : maxNDEFFileSize
        return max(0, min(maxNDEFFileSize, addressable) - lengthFieldSize)
    }

    /// Offset of the write access byte inside the CC file (14, or 16 for v3.0).
    public var writeAccessOffset: Int { usesExtendedNDEFLength ? 16 : 14 }

    /// The CC as the tag stores it (CCLEN says 15 or 17).
    public var bytes: [UInt8] {
        var out: [UInt8] = [UInt8((ccLength >> 8) & 0xFF), UInt8(ccLength & 0xFF), mappingVersion,
                            UInt8((maxResponseLength >> 8) & 0xFF), UInt8(maxResponseLength & 0xFF),
                            UInt8((maxCommandLength >> 8) & 0xFF), UInt8(maxCommandLength & 0xFF)]
        if usesExtendedNDEFLength {
            out += [0x06, 0x08] + ndefFileID
            out += [UInt8((maxNDEFFileSize >> 24) & 0xFF), UInt8((maxNDEFFileSize >> 16) & 0xFF),
                    UInt8((maxNDEFFileSize >> 8) & 0xFF), UInt8(maxNDEFFileSize & 0xFF)]
        } else {
            out += [0x04, 0x06] + ndefFileID
            out += [UInt8((maxNDEFFileSize >> 8) & 0xFF), UInt8(maxNDEFFileSize & 0xFF)]
        }
        out += [readAccess.byte, writeAccess.byte]
        return out
    }
}
