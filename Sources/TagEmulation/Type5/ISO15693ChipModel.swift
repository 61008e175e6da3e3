import NFCTags

/// The behaviour of one ISO 15693 chip that the virtual tag models (docs/tags-and-readers.md §7.5
/// and §7.11): memory map, what Get System Info reports, which commands it implements and how it
/// treats the option flag.
public struct ISO15693ChipModel: Sendable, Hashable {
    public var name: String
    public var blockSize: Int
    public var blockCount: Int
    /// nil: Get System Info leaves the IC reference out.
    public var icReference: UInt8?
    /// The PC/SC Part 3 card name NN NN a reader puts in the ATR (`00 00` = not given).
    public var storageCardName: UInt16
    /// Read Multiple Blocks (`23`): most blocks per command; 0 = not implemented (error `01`).
    public var maxReadMultipleBlocks: Int
    /// Extended commands (`30`–`33`) implemented.
    public var supportsExtendedCommands: Bool
    /// TI Tag-it: a write or lock without the option flag lands but the answer never comes in the
    /// reader's window (modelled as no answer).
    public var writeAnswersOnlyWithOption: Bool
    /// ST: a write or lock with the option flag is refused with error `03` (option not supported).
    public var refusesOptionOnWrite: Bool

    /// NXP ICODE SLIX2 (SL2S2602): 80 blocks of 4 bytes, IC reference `01` (the Flipper SLIX2 dump),
    /// PC/SC name `00 14` (ICODE SLI, which SLIX chips report); Read Multiple Blocks.
    public static let icodeSLIX2 = ISO15693ChipModel(
        name: "ICODE SLIX2", blockSize: 4, blockCount: 80, icReference: 0x01, storageCardName: 0x0014,
        maxReadMultipleBlocks: 80, supportsExtendedCommands: false, writeAnswersOnlyWithOption: false,
        refusesOptionOnWrite: false)

    /// ST ST25DV04K: 128 blocks of 4 bytes (4 kbit), IC reference `24`, no PC/SC card name; the
    /// extended commands; the option flag refused on writes.
    public static let st25dv04k = ISO15693ChipModel(
        name: "ST25DV04K", blockSize: 4, blockCount: 128, icReference: 0x24, storageCardName: 0x0000,
        maxReadMultipleBlocks: 32, supportsExtendedCommands: true, writeAnswersOnlyWithOption: false,
        refusesOptionOnWrite: true)

    /// TI Tag-it HF-I Plus: 64 blocks of 4 bytes (2 kbit), PC/SC name `00 12` (TAG_IT); Get System
    /// Info without an IC reference; writes and locks need the option flag.
    public static let tagItHFIPlus = ISO15693ChipModel(
        name: "Tag-it HF-I Plus", blockSize: 4, blockCount: 64, icReference: nil, storageCardName: 0x0012,
        maxReadMultipleBlocks: 64, supportsExtendedCommands: false, writeAnswersOnlyWithOption: true,
        refusesOptionOnWrite: false)

    public var memorySize: Int { blockSize * blockCount }
}
