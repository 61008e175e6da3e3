import NFCTags
import PCSC

/// The firmware string of a PC/SC reader, for `doctor`: ACS readers answer `FF 00 48 00 00`
/// (ACR122U API v2.04 §6.3), as an escape command on a direct connection (no card needed, but
/// libccid passes it only when `ifdDriverOptions` has bit 0x0001) or, with a card on the reader,
/// as a pseudo-APDU. Other readers have no such question and are not asked.
public enum PCSCReaderFirmware {
    public enum Answer: Equatable, Sendable {
        /// The reader's firmware string, e.g. "ACR122U215".
        case firmware(String)
        /// nfctap knows no firmware question for this reader.
        case notAsked
        /// The reader was asked and did not say (escape commands off and no card, or a refusal).
        case unavailable
    }

    /// `SCARD_ATTR_VENDOR_IFD_VERSION` (PC/SC Part 3 reader attribute, `0xMMmmbbbb`), read on a
    /// direct connection; libccid reports the USB device version (`bcdDevice`) in MM mm. nil when
    /// the driver does not report it (vpcd does not) or reports zero.
    public static func deviceVersion(readerName: String) -> String? {
        guard let context = try? Context(),
              let card = try? context.connect(reader: readerName, share: .direct, protocols: []) else { return nil }
        defer { try? card.disconnect(.leave) }
        return (try? card.attribute(0x0001_0102)).flatMap(versionText)
    }

    /// "2.14" from a little-endian DWORD `0xMMmmbbbb` whose MM mm are BCD (libccid's bcdDevice);
    /// the build number is added when it is not zero.
    public static func versionText(_ bytes: [UInt8]) -> String? {
        guard (4 ... 8).contains(bytes.count) else { return nil }
        let value = bytes.prefix(4).enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        guard value != 0 else { return nil }
        let major = String(value >> 24, radix: 16, uppercase: true)
        var minor = String((value >> 16) & 0xFF, radix: 16, uppercase: true)
        if minor.count < 2 { minor = "0" + minor }
        let build = value & 0xFFFF
        return "\(major).\(minor)" + (build == 0 ? "" : " build \(build)")
    }

    /// Asks the reader named `readerName`. Never throws: doctor reports what it could learn.
    public static func ask(readerName: String) -> Answer {
        guard let query = PCSCReaderProfile.firmwareQuery(readerName: readerName) else { return .notAsked }
        guard let context = try? Context() else { return .unavailable }
        if let card = try? context.connect(reader: readerName, share: .direct, protocols: []) {
            defer { try? card.disconnect(.leave) }
            if let reply = try? card.control(code: controlCode(1), query), let text = PCSCReaderProfile.firmwareString(reply) {
                return .firmware(text)
            }
        }
        if let card = try? context.connect(reader: readerName, share: .shared) {
            defer { try? card.disconnect(.leave) }
            if let reply = try? card.transmit(query), let text = PCSCReaderProfile.firmwareString(reply) {
                return .firmware(text)
            }
        }
        return .unavailable
    }
}
