/// One entry of `SCardGetStatusChange`'s reader list, as a value.
///
/// Pass states with `currentState` = what you know (`.unaware` at first); the call fills
/// `eventState`, `eventCounter` and `atr`. Call `acknowledge()` (copy event → current) before
/// the next call, otherwise it returns at once with the same change.
public struct ReaderState: Hashable, Sendable {
    /// The pseudo-reader whose state changes when readers are added or removed.
    public static let plugAndPlayReader = "\\\\?PnP?\\Notification"

    public var reader: String
    /// What the caller believes (sent as the low 16 bits of `dwCurrentState`).
    public var currentState: Flags
    /// The event counter the caller last saw (sent as the high 16 bits of `dwCurrentState`).
    public var currentCounter: UInt16
    /// What pcsc-lite reported (low 16 bits of `dwEventState`).
    public var eventState: Flags
    /// pcsc-lite's count of card events on this reader (high 16 bits of `dwEventState`): it moves
    /// on every insertion and removal, so a tag swapped between two calls is still seen.
    /// For the PnP pseudo-reader pcsc-lite ≥ 2.3 counts reader changes there instead.
    public var eventCounter: UInt16
    /// The card's ATR when `eventState` contains `.present`.
    public var atr: [UInt8]

    public init(reader: String, currentState: Flags = .unaware, currentCounter: UInt16 = 0) {
        self.reader = reader
        self.currentState = currentState
        self.currentCounter = currentCounter
        self.eventState = []
        self.eventCounter = 0
        self.atr = []
    }

    /// True for the `\\?PnP?\Notification` entry.
    public var isPlugAndPlay: Bool { reader == Self.plugAndPlayReader }

    /// True when the last call reported a change for this entry.
    public var hasChanged: Bool { eventState.contains(.changed) }

    /// Copies the event state and counter into the current state so the next call waits for
    /// a new change (pcsc-lite compares both, the counter included).
    public mutating func acknowledge() {
        currentState = eventState.subtracting(.changed)
        currentCounter = eventCounter
    }

    /// The `dwCurrentState` word sent to pcsc-lite: flags in the low 16 bits, counter in the high 16.
    public var currentStateWord: UInt {
        (currentState.rawValue & 0xFFFF) | (UInt(currentCounter) << 16)
    }

    /// Decodes a `dwEventState` word: flags from the low 16 bits, the counter from the high 16.
    public mutating func setEventStateWord(_ word: UInt) {
        eventState = Flags(rawValue: word & 0xFFFF)
        eventCounter = UInt16(truncatingIfNeeded: word >> 16)
    }

    /// SCARD_STATE_*.
    public struct Flags: OptionSet, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// SCARD_STATE_UNAWARE (0): the caller knows nothing yet.
        public static let unaware: Flags = []
        /// SCARD_STATE_IGNORE.
        public static let ignore = Flags(rawValue: 0x0001)
        /// SCARD_STATE_CHANGED: the event state differs from the current state.
        public static let changed = Flags(rawValue: 0x0002)
        /// SCARD_STATE_UNKNOWN: the reader name is not known.
        public static let unknown = Flags(rawValue: 0x0004)
        /// SCARD_STATE_UNAVAILABLE.
        public static let unavailable = Flags(rawValue: 0x0008)
        /// SCARD_STATE_EMPTY: no card.
        public static let empty = Flags(rawValue: 0x0010)
        /// SCARD_STATE_PRESENT: a card is in the reader (a tag in the field).
        public static let present = Flags(rawValue: 0x0020)
        /// SCARD_STATE_ATRMATCH.
        public static let atrMatch = Flags(rawValue: 0x0040)
        /// SCARD_STATE_EXCLUSIVE: another connection holds the card exclusively.
        public static let exclusive = Flags(rawValue: 0x0080)
        /// SCARD_STATE_INUSE.
        public static let inUse = Flags(rawValue: 0x0100)
        /// SCARD_STATE_MUTE: a card that does not answer.
        public static let mute = Flags(rawValue: 0x0200)
        /// SCARD_STATE_UNPOWERED.
        public static let unpowered = Flags(rawValue: 0x0400)

        public var description: String {
            let names: [(Flags, String)] = [
                (.ignore, "ignore"), (.changed, "changed"), (.unknown, "unknown"),
                (.unavailable, "unavailable"), (.empty, "empty"), (.present, "present"),
                (.atrMatch, "atrMatch"), (.exclusive, "exclusive"), (.inUse, "inUse"),
                (.mute, "mute"), (.unpowered, "unpowered"),
            ]
            let parts = names.filter { contains($0.0) }.map(\.1)
            return parts.isEmpty ? "unaware" : parts.joined(separator: "|")
        }
    }
}
