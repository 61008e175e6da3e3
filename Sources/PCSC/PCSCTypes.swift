import CPCSCLite

/// SCARD_SHARE_*: how `Context.connect` shares the reader with other connections.
public enum ShareMode: UInt, Sendable {
    /// SCARD_SHARE_EXCLUSIVE: no other connection to the card while this one is open.
    case exclusive = 1
    /// SCARD_SHARE_SHARED.
    case shared = 2
    /// SCARD_SHARE_DIRECT: a connection to the reader itself, card or not (for `Card.control`).
    case direct = 3
}

/// SCARD_PROTOCOL_*: protocols a connection accepts or uses.
public struct CardProtocols: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// SCARD_PROTOCOL_T0.
    public static let t0 = CardProtocols(rawValue: 0x1)
    /// SCARD_PROTOCOL_T1.
    public static let t1 = CardProtocols(rawValue: 0x2)
    /// SCARD_PROTOCOL_RAW.
    public static let raw = CardProtocols(rawValue: 0x4)
    /// SCARD_PROTOCOL_ANY (T0 | T1).
    public static let any: CardProtocols = [.t0, .t1]
}

/// SCARD_*_CARD: what happens to the card when a connection closes.
public enum Disposition: UInt, Sendable {
    /// SCARD_LEAVE_CARD: nothing; other connections and the card's state are left alone.
    case leave = 0
    /// SCARD_RESET_CARD.
    case reset = 1
    /// SCARD_UNPOWER_CARD.
    case unpower = 2
    /// SCARD_EJECT_CARD.
    case eject = 3
}

/// What `Card.status()` reports (wraps SCardStatus).
public struct CardStatus: Hashable, Sendable {
    /// The reader's name.
    public var reader: String
    /// Reader/card state (SCARD_ABSENT … SCARD_SPECIFIC in the low 16 bits, not the SCARD_STATE_* set).
    public var state: UInt
    /// The protocol in use.
    public var activeProtocol: CardProtocols
    public var atr: [UInt8]
}

/// SCARD_CTL_CODE(code): the control code for `Card.control(code:_:)`,
/// e.g. `controlCode(1)` for an ACR122U escape on a direct connection.
public func controlCode(_ code: UInt) -> UInt {
    UInt(nfctap_scard_ctl_code(DWORD(code)))
}
