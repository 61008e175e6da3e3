import Foundation
import NFCTags

extension EmulatedPCSCReader {
    /// SCardControl(IOCTL_CCID_ESCAPE) to the reader. ACR1252U / ACR1255U-J1 reference manuals:
    /// "LED Control" `E0 00 00 29 01 status` → `E1 00 00 00 01 status`, "Buzzer Control"
    /// `E0 00 00 28 01 duration` → `E1 00 00 00 01 00`. The ACR122U takes its pseudo-APDUs as escape
    /// commands too (API v2.04 Appendix A): `FF 00 48 00 00`, `FF 00 52 P2 00`. nil: refused.
    public func control(_ command: [UInt8]) -> [UInt8]? {
        state.withLock { $0.escapeLog.append(command) }
        switch profile.feedbackPath {
        case .acsEscape:
            guard command.count == 6, command[0 ..< 5] == [0xE0, 0x00, 0x00, 0x29, 0x01] || command[0 ..< 5] == [0xE0, 0x00, 0x00, 0x28, 0x01] else {
                return nil
            }
            if command[3] == 0x29 {
                state.withLock { $0.ledState = command[5] & 0x03 }
                return [0xE1, 0x00, 0x00, 0x00, 0x01, command[5] & 0x03]
            }
            state.withLock { $0.buzzerBeeps.append(command[5]) }
            return [0xE1, 0x00, 0x00, 0x00, 0x01, 0x00]
        case .acr122uPseudoAPDU:
            switch command {
            case [0xFF, 0x00, 0x48, 0x00, 0x00]: return firmwareString.map { Array($0.utf8) }
            case [0xFF, 0x00, 0x52, 0x00, 0x00], [0xFF, 0x00, 0x52, 0xFF, 0x00]:
                state.withLock { $0.buzzerOnDetection = command[3] == 0xFF }
                return Self.ok
            default: return nil
            }
        case .none:
            return nil
        }
    }
}
