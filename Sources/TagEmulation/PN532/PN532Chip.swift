import Foundation
import NFCTags

/// The command set of a PN532 in reader mode, without any I/O: one host command in, one answer
/// out. `PN532Emulator` puts it on a pseudo-terminal; tests drive it directly.
///
/// It covers what libnfc 1.8's `pn532_uart` driver sends when opening a device, listing,
/// reading and writing tags and closing (docs/tags-and-readers.md §5). Every frame that
/// reaches the tag goes through `plan` (latency, leave-field, faults, log).
// @unchecked: its exchanges run on the emulator's serving thread only; other threads swap its tag under the emulator's lock.
final class PN532Chip: @unchecked Sendable {
    /// What the chip does with a command.
    enum Outcome: Equatable {
        /// Answer with this payload (command code + 1, then data).
        case reply([UInt8])
        /// Answer with the syntax-error frame (unknown or malformed command).
        case syntaxError
        /// InAutoPoll found nothing yet: the caller asks `pollPending()` until it answers.
        case pending
    }

    // Command codes (PN532 User Manual §7).
    enum Command {
        static let diagnose: UInt8 = 0x00
        static let getFirmwareVersion: UInt8 = 0x02
        static let getGeneralStatus: UInt8 = 0x04
        static let readRegister: UInt8 = 0x06
        static let writeRegister: UInt8 = 0x08
        static let setParameters: UInt8 = 0x12
        static let samConfiguration: UInt8 = 0x14
        static let powerDown: UInt8 = 0x16
        static let rfConfiguration: UInt8 = 0x32
        static let inDataExchange: UInt8 = 0x40
        static let inCommunicateThru: UInt8 = 0x42
        static let inDeselect: UInt8 = 0x44
        static let inListPassiveTarget: UInt8 = 0x4A
        static let inRelease: UInt8 = 0x52
        static let inSelect: UInt8 = 0x54
        static let inAutoPoll: UInt8 = 0x60
    }

    // Status bytes (PN532 User Manual §7.1, libnfc pn53x-internal.h).
    enum Status {
        static let ok: UInt8 = 0x00
        /// The target did not answer.
        static let timeout: UInt8 = 0x01
        /// Invalid received frame (a NAK where data was expected).
        static let invalidFrame: UInt8 = 0x13
        /// Command not acceptable in the current context (no target selected).
        static let notAcceptable: UInt8 = 0x27
        /// The target was released.
        static let released: UInt8 = 0x29
        /// MIFARE authentication error (libnfc: NFC_EMFCAUTHFAIL).
        static let mifareAuthentication: UInt8 = 0x14
    }

    /// Registers whose CRC bits tell whether the chip or the host handles CRC_A.
    static let txModeRegister: UInt16 = 0x6302
    static let rxModeRegister: UInt16 = 0x6303
    static let crcEnableBit: UInt8 = 0x80
    /// SetParameters bit: send RATS automatically for ISO 14443-4 targets.
    static let automaticRATS: UInt8 = 0x10
    /// IC 32 (PN532), version 1.6, supports ISO 14443A, B and ISO 18092.
    static let firmwareVersion: [UInt8] = [0x32, 0x01, 0x06, 0x07]
    /// Largest answer data after the status byte that one extended frame carries for libnfc
    /// (264 bytes of frame data = code + status + 262).
    static let maxExchangeReply = 262

    let plan: FaultPlan
    private(set) var tag: VirtualTag?
    private(set) var registers: [UInt16: UInt8] = [txModeRegister: 0x80, rxModeRegister: 0x80]
    private(set) var parameters: UInt8 = 0
    private(set) var fieldOn = true
    /// The tag was activated by InListPassiveTarget / InAutoPoll and not released since.
    private(set) var selected = false
    /// ISO-DEP block number the emulated card expects (for R-block answers to raw frames).
    private var blockNumber: UInt8 = 0
    private var pendingPoll: (deadline: ContinuousClock.Instant?, types: [UInt8])?
    private let clock = ContinuousClock()

    init(tag: VirtualTag?, plan: FaultPlan) {
        self.tag = tag
        self.plan = plan
    }

    /// Puts another tag in the field (nil: the field is empty). The previous one is released.
    func setTag(_ newTag: VirtualTag?) {
        tag = newTag
        selected = false
    }

    /// The tag is in the field: a tag is set and the plan has not made it leave.
    private var tagInField: Bool { tag != nil && fieldOn && plan.tagPresent }

    /// The host sent the CRC bytes itself (the chip's TX CRC is off).
    var hostAppendsCRC: Bool { (registers[Self.txModeRegister] ?? 0) & Self.crcEnableBit == 0 }
    /// The host checks CRC bytes itself (the chip's RX CRC is off).
    var hostChecksCRC: Bool { (registers[Self.rxModeRegister] ?? 0) & Self.crcEnableBit == 0 }

    /// Runs one host command (`payload` = command code + data, TFI already checked).
    func handle(_ payload: [UInt8]) -> Outcome {
        guard let code = payload.first else { return .syntaxError }
        let args = Array(payload.dropFirst())
        pendingPoll = nil
        switch code {
        case Command.diagnose: return diagnose(args)
        case Command.getFirmwareVersion: return .reply([code + 1] + Self.firmwareVersion)
        case Command.getGeneralStatus:
            // Err, Field, NbTg, [Tg BrRx BrTx Type], SAM status.
            let target: [UInt8] = selected ? [0x01, 0x01, 0x00, 0x00, 0x00] : [0x00]
            return .reply([code + 1, 0x00, fieldOn ? 0x01 : 0x00] + target + [0x00])
        case Command.readRegister:
            guard !args.isEmpty, args.count % 2 == 0 else { return .syntaxError }
            let values = stride(from: 0, to: args.count, by: 2).map { i in
                registers[UInt16(args[i]) << 8 | UInt16(args[i + 1])] ?? 0
            }
            return .reply([code + 1] + values)
        case Command.writeRegister:
            guard !args.isEmpty, args.count % 3 == 0 else { return .syntaxError }
            for i in stride(from: 0, to: args.count, by: 3) {
                registers[UInt16(args[i]) << 8 | UInt16(args[i + 1])] = args[i + 2]
            }
            return .reply([code + 1])
        case Command.setParameters:
            guard args.count == 1 else { return .syntaxError }
            parameters = args[0]
            return .reply([code + 1])
        case Command.samConfiguration:
            guard (1...3).contains(args.count) else { return .syntaxError }
            return .reply([code + 1])
        case Command.powerDown:
            guard !args.isEmpty else { return .syntaxError }
            selected = false
            return .reply([code + 1, Status.ok])
        case Command.rfConfiguration:
            guard args.count >= 2 else { return .syntaxError }
            if args[0] == 0x01 {
                // CfgItem 1: RF field; bit 0 = on. Switching it off resets every tag.
                fieldOn = args[1] & 0x01 != 0
                if !fieldOn { selected = false }
            }
            return .reply([code + 1])
        case Command.inListPassiveTarget: return inListPassiveTarget(args)
        case Command.inDataExchange: return inDataExchange(args)
        case Command.inCommunicateThru: return inCommunicateThru(args)
        case Command.inDeselect, Command.inRelease:
            guard args.count == 1 else { return .syntaxError }
            selected = false
            return .reply([code + 1, Status.ok])
        case Command.inSelect:
            guard args.count == 1 else { return .syntaxError }
            guard args[0] == 0x01, tagInField else { return .reply([code + 1, Status.notAcceptable]) }
            activate()
            return .reply([code + 1, Status.ok])
        case Command.inAutoPoll: return inAutoPoll(args)
        default:
            return .syntaxError
        }
    }

    // MARK: - Diagnose

    private func diagnose(_ args: [UInt8]) -> Outcome {
        guard let test = args.first else { return .syntaxError }
        switch test {
        case 0x00:
            // Communication line test: echo NumTst and InParam.
            return .reply([Command.diagnose + 1] + args)
        case 0x06:
            // Card presence detection.
            guard selected else { return .reply([Command.diagnose + 1, Status.notAcceptable]) }
            return .reply([Command.diagnose + 1, tagInField ? Status.ok : Status.timeout])
        default:
            return .reply([Command.diagnose + 1, Status.ok])
        }
    }

    // MARK: - Activation

    /// `Tg SENS_RES SEL_RES NFCIDLength NFCID1 [ATS]` for the tag in the field.
    private func targetData(_ tag: VirtualTag) -> [UInt8] {
        var data: [UInt8] = [0x01] + tag.atqa + [tag.sak, UInt8(tag.uid.count)] + tag.uid
        if tag.sak & 0x20 != 0, parameters & Self.automaticRATS != 0, let ats = tag.ats {
            data += ats
        }
        return data
    }

    private func activate() {
        tag?.activate()
        selected = true
        blockNumber = 0
    }

    private func inListPassiveTarget(_ args: [UInt8]) -> Outcome {
        let code = Command.inListPassiveTarget + 1
        guard args.count >= 2 else { return .syntaxError }
        selected = false
        // BrTy 01/02 = FeliCa 212/424 kbps (docs/tags-and-readers.md §9.1).
        if args[1] == 0x01 || args[1] == 0x02 { return feliCaPolling(Array(args.dropFirst(2))) }
        // BrTy 00 = 106 kbps type A; the optional initiator data is a UID to select.
        guard args[1] == 0x00, let tag, !(tag is VirtualFeliCaCard), tagInField else { return .reply([code, 0x00]) }
        let wanted = Array(args.dropFirst(2))
        if !wanted.isEmpty && wanted != tag.uid { return .reply([code, 0x00]) }
        activate()
        return .reply([code, 0x01] + targetData(tag))
    }

    /// InListPassiveTarget for FeliCa: the payload `00 SC SC RC TSN` is the Polling command;
    /// the answer is `4B 01 | 01 | POL_RES` (POL_RES with its LEN byte).
    private func feliCaPolling(_ payload: [UInt8]) -> Outcome {
        let code = Command.inListPassiveTarget + 1
        guard payload.count == 5, payload[0] == 0x00 else { return .syntaxError }
        guard let card = tag as? VirtualFeliCaCard, tagInField,
              let response = card.respond(to: [0x06] + payload) else { return .reply([code, 0x00]) }
        selected = true
        return .reply([code, 0x01, 0x01] + response)
    }

    private func inAutoPoll(_ args: [UInt8]) -> Outcome {
        guard args.count >= 3 else { return .syntaxError }
        let pollCount = args[0], period = args[1]
        let types = Array(args.dropFirst(2))
        if let found = autoPollAnswer(types) { return .reply(found) }
        let deadline: ContinuousClock.Instant? = pollCount == 0xFF
            ? nil
            : clock.now + .milliseconds(150 * Int(max(1, period)) * Int(max(1, pollCount)))
        pendingPoll = (deadline, types)
        return .pending
    }

    /// The InAutoPoll answer when a tag of a requested type is in the field.
    private func autoPollAnswer(_ types: [UInt8]) -> [UInt8]? {
        guard let tag, tagInField, !(tag is VirtualFeliCaCard) else { return nil }
        // Target types: 0x00 generic 106 kbps A, 0x10 MIFARE, 0x20 ISO 14443-4A.
        let type: UInt8
        if tag.sak & 0x20 != 0, types.contains(0x20) { type = 0x20 }
        else if types.contains(0x10) { type = 0x10 }
        else if types.contains(0x00) { type = 0x00 }
        else { return nil }
        activate()
        let data = targetData(tag)
        return [Command.inAutoPoll + 1, 0x01, type, UInt8(data.count)] + data
    }

    /// For a pending InAutoPoll: the answer once a tag came or the polling time ran out; nil while waiting.
    func pollPending() -> [UInt8]? {
        guard let poll = pendingPoll else { return nil }
        if let found = autoPollAnswer(poll.types) {
            pendingPoll = nil
            return found
        }
        if let deadline = poll.deadline, clock.now >= deadline {
            pendingPoll = nil
            return [Command.inAutoPoll + 1, 0x00]
        }
        return nil
    }

    var hasPendingPoll: Bool { pendingPoll != nil }

    /// The host aborted a pending command (it sent an ACK).
    func abortPending() { pendingPoll = nil }

    // MARK: - Data exchange

    private func inDataExchange(_ args: [UInt8]) -> Outcome {
        let code = Command.inDataExchange + 1
        guard args.count >= 1 else { return .syntaxError }
        guard args[0] & 0x0F == 0x01, selected, let tag else { return .reply([code, Status.notAcceptable]) }
        let data = Array(args.dropFirst())
        let reply = plan.exchange(data) { [fieldOn] frame in fieldOn ? tag.respond(to: frame) : nil }
        if reply == nil, tag is VirtualMifareClassic, fieldOn, data.first == 0x60 || data.first == 0x61 {
            return .reply([code, Status.mifareAuthentication])  // the card refused the key (and halts)
        }
        guard let reply else { return .reply([code, Status.timeout]) }
        if tag.sak & 0x20 == 0, reply.count == 1 {
            // A Type 2 tag's 4-bit answer: ACK is a success without data, NAK an invalid frame.
            return .reply([code, reply[0] == 0x0A ? Status.ok : Status.invalidFrame])
        }
        // Never set the NAD (0x80) or MI (0x40) bits: libnfc aborts on NAD.
        guard reply.count <= Self.maxExchangeReply else { return .reply([code, 0x07]) }
        return .reply([code, Status.ok] + reply)
    }

    private func inCommunicateThru(_ args: [UInt8]) -> Outcome {
        let code = Command.inCommunicateThru + 1
        // Nothing to send (libnfc's barcode probe sends no bits): nothing answers.
        guard !args.isEmpty, selected, let tag else { return .reply([code, Status.timeout]) }
        if tag is VirtualFeliCaCard {
            // FeliCa frames (with their LEN byte) travel as they are; the chip handles the FeliCa CRC.
            let reply = plan.exchange(args) { [fieldOn] f in fieldOn ? tag.respond(to: f) : nil }
            guard let reply else { return .reply([code, Status.timeout]) }
            return .reply([code, Status.ok] + reply)
        }
        var frame = args
        if hostAppendsCRC {
            // The host sent CRC_A: a tag ignores a frame whose CRC_A is wrong.
            guard let body = strippingCRCA(frame) else { return .reply([code, Status.timeout]) }
            frame = body
        }
        let reply: [UInt8]?
        if tag.sak & 0x20 != 0 {
            reply = isoDEPBlock(frame, tag: tag)
        } else {
            reply = plan.exchange(frame) { [fieldOn] f in fieldOn ? tag.respond(to: f) : nil }
        }
        guard var answer = reply else { return .reply([code, Status.timeout]) }
        // 4-bit ACK/NAK answers carry no CRC.
        if hostChecksCRC && answer.count > 1 { answer = appendingCRCA(answer) }
        guard answer.count <= Self.maxExchangeReply else { return .reply([code, 0x07]) }
        return .reply([code, Status.ok] + answer)
    }

    /// An ISO 14443-4 block sent raw (ISO/IEC 14443-4 §7.1): I-blocks carry APDUs, R(NAK) is
    /// answered with R(ACK) (libnfc's presence check), S(DESELECT) deselects.
    private func isoDEPBlock(_ frame: [UInt8], tag: VirtualTag) -> [UInt8]? {
        guard let pcb = frame.first else { return nil }
        switch pcb & 0xE2 {
        case 0x02 where pcb & 0x10 == 0 && pcb & 0x0C == 0:
            // I-block without chaining, CID or NAD.
            let apdu = Array(frame.dropFirst())
            guard let reply = plan.exchange(frame, answer: { [fieldOn] _ in fieldOn ? tag.respond(to: apdu) : nil }) else {
                return nil
            }
            blockNumber = (pcb & 0x01) ^ 0x01
            return [0x02 | (pcb & 0x01)] + reply
        case 0xA2:
            // R-block; NAK (bit 0x10) or ACK: answer R(ACK) with the card's block number.
            return plan.exchange(frame) { [fieldOn, blockNumber] _ in fieldOn ? [0xA2 | (blockNumber ^ 0x01)] : nil }
        case 0xC2:
            // S(DESELECT) → the card confirms and goes to HALT.
            let reply = plan.exchange(frame) { [fieldOn] f in fieldOn ? [f[0]] : nil }
            if reply != nil { selected = false }
            return reply
        default:
            return plan.exchange(frame) { _ in nil }
        }
    }
}
