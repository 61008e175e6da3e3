import CPCSCLite

/// A pcsc-lite return code (`LONG`, an `Int` on 64-bit Linux) as a Swift error.
///
/// Every code survives: the named statics cover the codes the project acts on, any other
/// code is still a `PCSCError` with its raw value and pcsc-lite's own text.
/// Catch one code with a pattern: `catch PCSCError.timeout { … }`.
public struct PCSCError: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `SCARD_*` value exactly as pcsc-lite returned it (e.g. `0x80100002`).
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// pcsc-lite's text for the code (`pcsc_stringify_error`) and the code in hex.
    public var description: String {
        let text = String(cString: pcsc_stringify_error(rawValue))
        return "\(text) (0x\(String(UInt(bitPattern: rawValue), radix: 16, uppercase: true)))"
    }

    /// `~=` so that `catch PCSCError.noSmartcard` and `case .timeout` match on the code.
    public static func ~= (pattern: PCSCError, error: any Error) -> Bool {
        (error as? PCSCError)?.rawValue == pattern.rawValue
    }
}

extension PCSCError {
    /// SCARD_F_INTERNAL_ERROR: an internal consistency check failed.
    public static let internalError = PCSCError(rawValue: 0x8010_0001)
    /// SCARD_E_CANCELLED: the call was cancelled by SCardCancel.
    public static let cancelled = PCSCError(rawValue: 0x8010_0002)
    /// SCARD_E_INVALID_HANDLE: the context or card handle is not valid (any more).
    public static let invalidHandle = PCSCError(rawValue: 0x8010_0003)
    /// SCARD_E_INVALID_PARAMETER.
    public static let invalidParameter = PCSCError(rawValue: 0x8010_0004)
    /// SCARD_E_NO_MEMORY.
    public static let noMemory = PCSCError(rawValue: 0x8010_0006)
    /// SCARD_E_INSUFFICIENT_BUFFER: the receive buffer was too small for the reply.
    public static let insufficientBuffer = PCSCError(rawValue: 0x8010_0008)
    /// SCARD_E_UNKNOWN_READER: no reader has that name.
    public static let unknownReader = PCSCError(rawValue: 0x8010_0009)
    /// SCARD_E_TIMEOUT: the timeout given to SCardGetStatusChange expired.
    public static let timeout = PCSCError(rawValue: 0x8010_000A)
    /// SCARD_E_SHARING_VIOLATION: another connection holds the card exclusively.
    public static let sharingViolation = PCSCError(rawValue: 0x8010_000B)
    /// SCARD_E_NO_SMARTCARD: no card in the reader.
    public static let noSmartcard = PCSCError(rawValue: 0x8010_000C)
    /// SCARD_E_PROTO_MISMATCH: the requested protocols do not match the card.
    public static let protocolMismatch = PCSCError(rawValue: 0x8010_000F)
    /// SCARD_E_NOT_READY: the reader or card is not ready.
    public static let notReady = PCSCError(rawValue: 0x8010_0010)
    /// SCARD_E_INVALID_VALUE.
    public static let invalidValue = PCSCError(rawValue: 0x8010_0011)
    /// SCARD_F_COMM_ERROR: internal communication error (with pcscd or the reader).
    public static let commError = PCSCError(rawValue: 0x8010_0013)
    /// SCARD_F_UNKNOWN_ERROR.
    public static let unknownError = PCSCError(rawValue: 0x8010_0014)
    /// SCARD_E_NOT_TRANSACTED: the command could not be carried out (reader/card error).
    public static let notTransacted = PCSCError(rawValue: 0x8010_0016)
    /// SCARD_E_READER_UNAVAILABLE: the reader is not available (unplugged).
    public static let readerUnavailable = PCSCError(rawValue: 0x8010_0017)
    /// SCARD_E_NO_SERVICE: pcscd is not running.
    public static let noService = PCSCError(rawValue: 0x8010_001D)
    /// SCARD_E_SERVICE_STOPPED: pcscd went away.
    public static let serviceStopped = PCSCError(rawValue: 0x8010_001E)
    /// SCARD_E_UNSUPPORTED_FEATURE (also SCARD_E_UNEXPECTED, same value in pcsc-lite).
    public static let unsupportedFeature = PCSCError(rawValue: 0x8010_001F)
    /// SCARD_E_NO_READERS_AVAILABLE: no reader attached (`Context.listReaders` turns it into `[]`).
    public static let noReadersAvailable = PCSCError(rawValue: 0x8010_002E)
    /// SCARD_W_UNSUPPORTED_CARD.
    public static let unsupportedCard = PCSCError(rawValue: 0x8010_0065)
    /// SCARD_W_UNRESPONSIVE_CARD: the card does not answer a reset.
    public static let unresponsiveCard = PCSCError(rawValue: 0x8010_0066)
    /// SCARD_W_UNPOWERED_CARD.
    public static let unpoweredCard = PCSCError(rawValue: 0x8010_0067)
    /// SCARD_W_RESET_CARD: the card was reset by another connection.
    public static let resetCard = PCSCError(rawValue: 0x8010_0068)
    /// SCARD_W_REMOVED_CARD: the card was removed.
    public static let removedCard = PCSCError(rawValue: 0x8010_0069)
}

/// Turns a pcsc-lite return code into `()` or a thrown `PCSCError` (the first link of the error
/// chain, docs/architecture.md "Errors"); every function of this module throws `PCSCError` only.
/// - Throws: `PCSCError(rawValue: code)` for anything other than SCARD_S_SUCCESS.
@inline(__always)
func check(_ code: LONG) throws(PCSCError) {
    guard code == 0 else { throw PCSCError(rawValue: Int(code)) }
}
