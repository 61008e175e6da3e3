/// The NFC Forum Type 3 attribute information block, block 0 of service `000B`
/// (docs/tags-and-readers.md §9.3): version, Nbr/Nbw, Nmaxb, WriteF, RWFlag, Ln, checksum.
public struct Type3AttributeBlock: Equatable, Sendable {
    public var version: UInt8
    /// Most blocks per Read Without Encryption.
    public var nbr: Int
    /// Most blocks per Write Without Encryption.
    public var nbw: Int
    /// NDEF data blocks (after block 0).
    public var nmaxb: Int
    /// `0F`: a write is in progress (the data is not to be trusted).
    public var writeInProgress: Bool
    public var writable: Bool
    /// NDEF message length in bytes.
    public var length: Int

    public static let writeFlagInProgress: UInt8 = 0x0F

    public init(version: UInt8 = 0x10, nbr: Int, nbw: Int, nmaxb: Int, writeInProgress: Bool = false,
                writable: Bool = true, length: Int = 0) {
        self.version = version
        self.nbr = nbr
        self.nbw = nbw
        self.nmaxb = nmaxb
        self.writeInProgress = writeInProgress
        self.writable = writable
        self.length = length
    }

    /// Parses block 0 and checks what a reader must check before trusting it.
    /// - Throws: `TagError.invalidTagData` (wrong size, checksum mismatch, Nbr 0);
    ///   `TagError.notNDEFFormatted` for a mapping major version other than 1.
    public init(block: [UInt8]) throws(TagError) {
        guard block.count == 16 else { throw TagError.invalidTagData("attribute block of \(block.count) bytes (16)") }
        let sum = Self.checksum(Array(block[0..<14]))
        let stored = Int(block[14]) << 8 | Int(block[15])
        guard sum == stored else {
            throw TagError.invalidTagData("attribute block checksum \(String(stored, radix: 16)) but the bytes sum to \(String(sum, radix: 16))")
        }
        guard block[0] >> 4 == 1 else { throw TagError.notNDEFFormatted("Type 3 mapping version \(block[0] >> 4).\(block[0] & 0x0F)") }
        version = block[0]
        nbr = Int(block[1])
        nbw = Int(block[2])
        nmaxb = Int(block[3]) << 8 | Int(block[4])
        guard nbr > 0 else { throw TagError.invalidTagData("attribute block allows 0 blocks per read") }
        switch block[9] {
        case 0x00: writeInProgress = false
        case Self.writeFlagInProgress: writeInProgress = true
        default: throw TagError.invalidTagData("attribute block WriteF \([block[9]].hexString)")
        }
        writable = block[10] != 0x00
        length = Int(block[11]) << 16 | Int(block[12]) << 8 | Int(block[13])
    }

    /// Bytes a message may take.
    public var capacity: Int { nmaxb * 16 }

    /// Blocks the current message takes.
    public var messageBlocks: Int { (length + 15) / 16 }

    /// The 16 bytes, checksum included.
    public var bytes: [UInt8] {
        var block: [UInt8] = [version, UInt8(clamping: nbr), UInt8(clamping: nbw), UInt8((nmaxb >> 8) & 0xFF), UInt8(nmaxb & 0xFF),
                              0, 0, 0, 0, writeInProgress ? Self.writeFlagInProgress : 0x00, writable ? 0x01 : 0x00,
                              UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
        let sum = Self.checksum(block)
        block += [UInt8(sum >> 8), UInt8(sum & 0xFF)]
        return block
    }

    /// Sum of bytes 0–13, 16 bits.
    static func checksum(_ bytes: [UInt8]) -> Int { bytes.reduce(0) { $0 + Int($1) } & 0xFFFF }
}
