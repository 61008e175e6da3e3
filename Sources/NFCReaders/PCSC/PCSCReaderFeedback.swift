import NFCTags
import ReaderCore

/// What nfctap sends a PC/SC reader for LED/buzzer feedback, by `PCSCReaderProfile.feedbackPath`.
public enum PCSCReaderFeedback {
    /// One command: a pseudo-APDU through SCardTransmit, or an escape command through
    /// SCardControl(IOCTL_SMARTCARD_VENDOR_IFD_EXCHANGE, which is `SCARD_CTL_CODE(1)` with libccid).
    public enum Step: Equatable, Sendable {
        case transmit([UInt8])
        case control([UInt8])
    }

    /// ACR122U API v2.04 §6.7 "Set buzzer output during card detection": P2 `00` off, `FF` on.
    /// The ACR122U beeps by itself on every card (acsccid issue 3), so nfctap's own success beep
    /// would sound twice: nfctap turns it off while it drives feedback and back on at exit.
    public static let automaticBuzzerOff: [UInt8] = [0xFF, 0x00, 0x52, 0x00, 0x00]
    public static let automaticBuzzerOn: [UInt8] = [0xFF, 0x00, 0x52, 0xFF, 0x00]

    /// How long nfctap waits for a reader to answer its feedback commands: the longest sequence
    /// sent (the ACR122U failure blink, 400 ms, answered when it has played) plus margin. A reader
    /// silent beyond it is sent no more feedback (`PCSCReaderRegistry.feedbackUnanswered`).
    public static let answerBound: Duration = .milliseconds(1500)

    /// The commands for one feedback; `[]` for readers without LED/buzzer control.
    public static func steps(_ feedback: ReaderFeedback, profile: PCSCReaderProfile, readerName: String) -> [Step] {
        switch profile.feedbackPath {
        case .none:
            return []
        case .acr122uPseudoAPDU:
            return [.transmit(acr122uCommand(feedback))]
        case .acsEscape:
            // ACR1252U reference manual "LED Control" (E0 00 00 29 01, bit 0 red, bit 1 green) and
            // "Buzzer Control" (E0 00 00 28 01, duration in 10 ms). The ACR1255U-J1 manual swaps the
            // LED bits (bit 0 green, bit 1 red), so the LED is set only where the layout is known.
            let beep: [UInt8] = [0xE0, 0x00, 0x00, 0x28, 0x01, feedback == .success ? 0x0A : 0x1E]
            guard readerName.localizedCaseInsensitiveContains("1252") else { return [.control(beep)] }
            let led: [UInt8] = [0xE0, 0x00, 0x00, 0x29, 0x01, feedback == .success ? 0x02 : 0x01]
            return [.control(led), .control(beep)]
        }
    }

    /// The ACR122U "Bi-color LED and Buzzer Control" pseudo-APDU (API v2.04 §6.2):
    /// `FF 00 40 P2 04 T1 T2 REP LINK`, T in 100 ms units. P2 bits: 0/1 final red/green, 2/3
    /// red/green update mask, 4/5 initial red/green blink state, 6/7 red/green blink mask.
    /// LINK 01: buzz during T1.
    static func acr122uCommand(_ feedback: ReaderFeedback) -> [UInt8] {
        switch feedback {
        case .success:
            // Green blink mask + green on during T1 + green update, final off; 200 ms, once, beep in T1.
            return [0xFF, 0x00, 0x40, 0xA8, 0x04, 0x02, 0x01, 0x01, 0x01]
        case .failure:
            // Red blink mask + red on during T1 + red update, final off; 100 ms on/off twice, no beep.
            return [0xFF, 0x00, 0x40, 0x54, 0x04, 0x01, 0x01, 0x02, 0x00]
        }
    }
}
