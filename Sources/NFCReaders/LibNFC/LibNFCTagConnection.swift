import Foundation
import LibNFC
import NFCTags
import ReaderCore

/// A connection to one tag on a libnfc device. ISO-DEP tags (SAK bit 0x20) get `apdu`,
/// Type 2 tags (SAK 00) get `type2`, FeliCa cards `feliCa`. Every command takes the device lock for one exchange.
final class LibNFCTagConnection: TagConnection {
    let tag: DetectedTag
    let apdu: Transceiver?
    let type2: Type2Link?
    let feliCa: Transceiver?
    let mifareClassic: MifareClassicLink?
    private let slot: LibNFCReaderSlot
    private let exchanger: LibNFCExchanger
    private var open = true

    init(tag: DetectedTag, target: LibNFCTarget, slot: LibNFCReaderSlot, timeout: Duration) {
        self.tag = tag
        self.slot = slot
        let exchanger = LibNFCExchanger(slot: slot, target: target, timeout: timeout)
        self.exchanger = exchanger
        apdu = target.isISODEP ? LibNFCAPDUChannel(exchanger) : nil
        type2 = (target.feliCa == nil && !target.isISODEP && target.sak == 0x00) ? LibNFCType2Link(exchanger) : nil
        feliCa = target.feliCa != nil ? LibNFCFeliCaChannel(exchanger) : nil
        mifareClassic = target.feliCa == nil && MifareClassicLayout(sak: target.sak) != nil ? LibNFCMifareClassicLink(exchanger) : nil
    }

    /// libnfc drives no LED or buzzer on a PN53x: this does nothing.
    func signal(_ feedback: ReaderFeedback) {}

    /// Ends the connection; the tag stays selected and the monitor resumes presence checks.
    func disconnect() {
        guard open else { return }
        open = false
        slot.endConnection()
    }

    /// Later exchanges fail at once; a blocking one is interrupted with `nfc_abort_command`.
    var abandoner: @Sendable () -> Void {
        { [abandoned = exchanger.abandoned, slot] in
            abandoned.raise()
            slot.abort()
        }
    }

    deinit { disconnect() }
}

/// One tag exchange through libnfc with the boundary's error translation.
final class LibNFCExchanger {
    let slot: LibNFCReaderSlot
    let target: LibNFCTarget
    var uid: [UInt8] { target.uid }
    let timeout: Duration
    /// Raised when the connection is abandoned: no more exchanges.
    let abandoned = AbandonFlag()

    init(slot: LibNFCReaderSlot, target: LibNFCTarget, timeout: Duration) {
        self.slot = slot
        self.target = target
        self.timeout = timeout
    }

    /// Runs `body` on the device and translates errors into `TagError` (docs/architecture.md
    /// "Errors"). ERFTRANS (the PN53x saw no answer, or a NAK, or garbage) is resolved with one
    /// anticollision round: the same UID answers → `.transport`, else → `.tagLost`.
    /// The re-selection also wakes a Type 2 tag muted by a NAK.
    func run<T: Sendable>(_ body: (LibNFCDevice) throws(LibNFCError) -> T) throws(TagError) -> T {
        guard !abandoned.isRaised else { throw TagError.tagLost }
        let outcome: Result<T, TagError>
        do throws(LibNFCError) {
            outcome = try slot.withDevice { device, state throws(LibNFCError) -> Result<T, TagError> in
                do throws(LibNFCError) {
                    return .success(try body(device))
                } catch where error == .rfTransmission || error == .mifareAuthFailed {
                    // A refused MIFARE key halts the card too: selected again, it takes the next key.
                    let again = try? device.reselect(target)
                    state.target = again
                    guard again != nil else { return .failure(.tagLost) }
                    return .failure(.transport(code: error.rawValue,
                                               message: "\(error.message): the tag rejected the command or answered garbage"))
                }
            }
        } catch {
            throw TagError(libnfc: error)
        }
        return try outcome.get()
    }

    /// nfc_initiator_transceive_bytes with easy framing (InDataExchange).
    func transceive(_ bytes: [UInt8]) throws(TagError) -> [UInt8] {
        try run { device throws(LibNFCError) in try device.transceive(bytes, timeout: timeout) }
    }
}

/// ISO 7816 APDUs to an ISO-DEP tag (the PN53x handles the ISO 14443-4 blocks).
final class LibNFCAPDUChannel: Transceiver {
    private let exchanger: LibNFCExchanger

    init(_ exchanger: LibNFCExchanger) { self.exchanger = exchanger }

    /// - Throws: `TagError`; `.malformedReply` when the answer has no status word.
    func transceive(_ command: [UInt8]) throws(TagError) -> [UInt8] {
        let reply = try exchanger.transceive(command)
        guard reply.count >= 2 else {
            throw TagError.malformedReply("\(reply.count)-byte answer to an APDU has no status word")
        }
        return reply
    }
}

/// FeliCa frames (`LEN CMD …`, docs/tags-and-readers.md §9.1) to a FeliCa card: libnfc sends them
/// in InDataExchange and the PN53x adds the CRC.
final class LibNFCFeliCaChannel: Transceiver {
    private let exchanger: LibNFCExchanger

    init(_ exchanger: LibNFCExchanger) { self.exchanger = exchanger }

    func transceive(_ command: [UInt8]) throws(TagError) -> [UInt8] {
        try exchanger.transceive(command)
    }
}

/// MIFARE Classic through a PN53x, which does Crypto1 inside InDataExchange (PN532 User Manual
/// §7.3.8; libnfc's MIFARE commands): `60|61 block key uid` authenticates (the UID's last 4
/// bytes), `30 block` reads 16 bytes, `A0 block data` writes them. A refused key
/// (NFC_EMFCAUTHFAIL, or an RF error while the same card still answers) is `.authenticationFailed`;
/// the exchanger has selected the halted card again by then.
final class LibNFCMifareClassicLink: MifareClassicLink {
    private let exchanger: LibNFCExchanger

    init(_ exchanger: LibNFCExchanger) { self.exchanger = exchanger }

    func authenticate(block: Int, key: [UInt8], keyB: Bool) throws(TagError) {
        guard key.count == 6, (0...0xFF).contains(block) else { throw TagError.unsupported("a key of \(key.count) bytes for block \(block)") }
        let frame = [keyB ? 0x61 : 0x60, UInt8(block)] + key + Array(exchanger.uid.suffix(4))
        do throws(TagError) {
            _ = try exchanger.transceive(frame)
        } catch {
            guard case let .transport(code, _) = error,
                  code == LibNFCError.mifareAuthFailed.rawValue || code == LibNFCError.rfTransmission.rawValue else { throw error }
            throw TagError.authenticationFailed(sector: block < 128 ? block / 4 : 32 + (block - 128) / 16)
        }
    }

    func readBlock(_ block: Int) throws(TagError) -> [UInt8] {
        try exchanger.transceive([0x30, UInt8(block)])
    }

    func writeBlock(_ block: Int, _ data: [UInt8]) throws(TagError) {
        guard data.count == 16 else { throw TagError.unsupported("a block write of \(data.count) bytes") }
        _ = try exchanger.transceive([0xA0, UInt8(block)] + data)
    }
}
