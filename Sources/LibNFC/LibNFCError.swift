/// A libnfc error code (`NFC_E*`, negative `int`), kept as its raw value.
///
/// Named statics mirror `nfc.h`; unknown codes stay representable (`LibNFCError(rawValue: -99)`)
/// and print as "libnfc error -99". `description` is libnfc's own text (the table behind
/// `nfc_strerror`, which only reads a device's last error and so cannot be called without one).
public struct LibNFCError: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// NFC_EIO: input/output error; the device may be unusable until reopened.
    public static let io = LibNFCError(rawValue: -1)
    /// NFC_EINVARG: invalid argument(s).
    public static let invalidArgument = LibNFCError(rawValue: -2)
    /// NFC_EDEVNOTSUPP: operation not supported by the device.
    public static let deviceNotSupported = LibNFCError(rawValue: -3)
    /// NFC_ENOTSUCHDEV: no such device.
    public static let noSuchDevice = LibNFCError(rawValue: -4)
    /// NFC_EOVFLOW: buffer overflow.
    public static let overflow = LibNFCError(rawValue: -5)
    /// NFC_ETIMEOUT: operation timed out.
    public static let timeout = LibNFCError(rawValue: -6)
    /// NFC_EOPABORTED: operation aborted (by `nfc_abort_command`).
    public static let operationAborted = LibNFCError(rawValue: -7)
    /// NFC_ENOTIMPL: not (yet) implemented.
    public static let notImplemented = LibNFCError(rawValue: -8)
    /// NFC_ETGRELEASED: target released (the tag left).
    public static let targetReleased = LibNFCError(rawValue: -10)
    /// NFC_ERFTRANS: RF transmission error (the PN53x reported a timeout, CRC, framing... error).
    public static let rfTransmission = LibNFCError(rawValue: -20)
    /// NFC_EMFCAUTHFAIL: MIFARE Classic authentication failed.
    public static let mifareAuthFailed = LibNFCError(rawValue: -30)
    /// NFC_ESOFT: software error (allocation, system error).
    public static let software = LibNFCError(rawValue: -80)
    /// NFC_ECHIP: the device's internal chip reported an error.
    public static let chip = LibNFCError(rawValue: -90)

    /// The `NFC_E*` macro name, or nil for an unknown code.
    public var name: String? {
        switch rawValue {
        case -1: return "NFC_EIO"
        case -2: return "NFC_EINVARG"
        case -3: return "NFC_EDEVNOTSUPP"
        case -4: return "NFC_ENOTSUCHDEV"
        case -5: return "NFC_EOVFLOW"
        case -6: return "NFC_ETIMEOUT"
        case -7: return "NFC_EOPABORTED"
        case -8: return "NFC_ENOTIMPL"
        case -10: return "NFC_ETGRELEASED"
        case -20: return "NFC_ERFTRANS"
        case -30: return "NFC_EMFCAUTHFAIL"
        case -80: return "NFC_ESOFT"
        case -90: return "NFC_ECHIP"
        default: return nil
        }
    }

    /// libnfc's message for the code (libnfc 1.8 `nfc.c`, `sErrorMessages`).
    public var message: String {
        switch rawValue {
        case -1: return "Input / Output Error"
        case -2: return "Invalid argument(s)"
        case -3: return "Not Supported by Device"
        case -4: return "No Such Device"
        case -5: return "Buffer Overflow"
        case -6: return "Timeout"
        case -7: return "Operation Aborted"
        case -8: return "Not (yet) Implemented"
        case -10: return "Target Released"
        case -20: return "RF Transmission Error"
        case -30: return "Mifare Authentication Failed"
        case -90: return "Device's Internal Chip Error"
        default: return "libnfc error \(rawValue)"
        }
    }

    public var description: String {
        name.map { "\(message) (\($0))" } ?? message
    }

    /// Lets `catch LibNFCError.timeout` match.
    public static func ~= (pattern: LibNFCError, value: Error) -> Bool {
        (value as? LibNFCError) == pattern
    }
}
