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
