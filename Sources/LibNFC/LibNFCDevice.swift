import CLibNFC
import Foundation
import Synchronization

/// An open libnfc device (`nfc_device`). Closed by `close()` or on deinit (nfc_close).
///
/// libnfc devices are not thread-safe: the owner serializes every call except `abort()`, which
/// may be called from any thread to interrupt a blocking call (nfc_abort_command).
/// Do not call `close()` while another thread is inside a call.
public final class LibNFCDevice: Sendable {
    /// The context stays alive as long as the device.
    public let context: LibNFCContext
    public let connstring: String
    /// nil once closed; `close()` and `abort()` may race, so the handle is read under this lock.
    private let handle: Mutex<OpaquePointer?>

    /// Largest reply a PN53x data exchange can carry (extended frame data, 264 bytes).
    public static let maxReplyLength = 264

    init(context: LibNFCContext, handle: sending OpaquePointer, connstring: String) {
        self.context = context
        self.handle = Mutex(handle)
        self.connstring = connstring
    }

    deinit { close() }

    /// Wraps nfc_device_get_name, e.g. "pn532_uart:/dev/pts/3".
    public var name: String {
        guard let h = liveHandle else { return connstring }
        return String(cString: nfc_device_get_name(h))
    }

    /// Wraps nfc_device_get_last_error.
    public var lastError: LibNFCError? {
        guard let h = liveHandle else { return nil }
        let code = nfc_device_get_last_error(h)
        return code == 0 ? nil : LibNFCError(rawValue: Int(code))
    }

    /// True until `close()`.
    public var isOpen: Bool { liveHandle != nil }

    /// Wraps nfc_close (InRelease, field off, PowerDown, then the port is released). Idempotent.
    public func close() {
        let h: OpaquePointer? = handle.withLock { handle in
            defer { handle = nil }
            return handle
        }
        if let h { nfc_close(h) }
    }

    /// Wraps nfc_abort_command: a blocking call on another thread returns `operationAborted`.
    /// Safe from any thread.
    public func abort() {
        handle.withLock { handle in
            if let h = handle { _ = nfc_abort_command(h) }
        }
    }

    private var liveHandle: OpaquePointer? { handle.withLock { $0 } }

    private func device() throws(LibNFCError) -> OpaquePointer {
        guard let h = liveHandle else { throw LibNFCError.noSuchDevice }
        return h
    }

    /// A libnfc return code: the count it carries, or the `LibNFCError` (the first link of the
    /// error chain, docs/architecture.md "Errors").
    @discardableResult
    private func check(_ code: Int32) throws(LibNFCError) -> Int {
        if code < 0 { throw LibNFCError(rawValue: Int(code)) }
        return Int(code)
    }

    /// Wraps nfc_initiator_init: reader mode, field cycled on, infinite select, auto ISO 14443-4,
    /// ISO 14443A at 106 kbps, easy framing, chip-handled CRC and parity.
    /// - Throws: `LibNFCError`.
    public func initiatorInit() throws(LibNFCError) {
        try check(nfc_initiator_init(try device()))
    }

    /// Wraps nfc_device_set_property_bool.
    /// - Throws: `LibNFCError`.
    public func setProperty(_ property: LibNFCProperty, _ enabled: Bool) throws(LibNFCError) {
        try check(nfc_device_set_property_bool(try device(), property.cValue, enabled))
    }

    /// Wraps nfc_initiator_select_passive_target (ISO 14443A, 106 kbps): one anticollision round
    /// (retried forever when `infiniteSelect` is on). Returns nil when no tag answered.
    /// - Throws: `LibNFCError` (`.io` when the device is gone).
    public func selectPassiveTarget() throws(LibNFCError) -> LibNFCTarget? {
        let h = try device()
        guard let target = nfctap_target_new() else { throw LibNFCError.software }
        defer { free(target) }
        let found = try check(nfc_initiator_select_passive_target(h, nfctap_modulation_iso14443a_106(), nil, 0, target))
        return found > 0 ? Self.decode(target) : nil
    }

    /// Wraps nfc_initiator_poll_target (ISO 14443A, 106 kbps; the PN532 runs InAutoPoll):
    /// `pollCount` rounds (0xFF = forever) of `period` × 150 ms. Returns nil when nothing came.
    /// - Throws: `LibNFCError` (`.operationAborted` after `abort()`).
    public func pollTarget(pollCount: UInt8, period: UInt8) throws(LibNFCError) -> LibNFCTarget? {
        let h = try device()
        guard let target = nfctap_target_new() else { throw LibNFCError.software }
        defer { free(target) }
        var modulation = nfctap_modulation_iso14443a_106()
        let found = try check(nfc_initiator_poll_target(h, &modulation, 1, pollCount, period, target))
        return found > 0 ? Self.decode(target) : nil
    }

    /// Wraps nfc_initiator_select_passive_target with NMT_FELICA (InListPassiveTarget BrTy 01 or
    /// 02): one Polling with `payload` (`00 SC SC RC TSN`; docs/tags-and-readers.md §9.1).
    /// Returns nil when no card answered, or when the answer is no POL_RES (LEN 18 or 20, code
    /// `01`; JIS X 6319-4 §10.1.2): a short or garbled answer never becomes a card's identity.
    /// - Throws: `LibNFCError`.
    public func selectFeliCa(payload: [UInt8] = [0x00, 0xFF, 0xFF, 0x01, 0x00], kbps: Int = 212) throws(LibNFCError) -> LibNFCTarget? {
        let h = try device()
        guard let target = nfctap_target_new() else { throw LibNFCError.software }
        defer { free(target) }
        let found = try payload.withUnsafeBufferPointer { data throws(LibNFCError) in
            try check(nfc_initiator_select_passive_target(h, nfctap_modulation_felica(kbps == 424 ? 0 : 1),
                                                          data.baseAddress, data.count, target))
        }
        guard found > 0 else { return nil }
        var idm = [UInt8](repeating: 0, count: 8), pmm = [UInt8](repeating: 0, count: 8), sc: [UInt8] = [0, 0]
        var hasSystemCode: Int32 = 0
        var length = 0, responseCode: UInt8 = 0
        guard nfctap_target_felica(target, &idm, &pmm, &sc, &hasSystemCode, &length, &responseCode) == 1,
              length == 18 || length == 20, responseCode == 0x01 else { return nil }
        return LibNFCTarget(feliCa: LibNFCFeliCaInfo(idm: idm, pmm: pmm, systemCode: hasSystemCode != 0 ? sc : [], kbps: kbps))
    }

    private static func decode(_ target: UnsafePointer<nfc_target>) -> LibNFCTarget? {
        var atqa: [UInt8] = [0, 0]
        var sak: UInt8 = 0
        var uid = [UInt8](repeating: 0, count: 10)
        var ats = [UInt8](repeating: 0, count: 254)
        var uidLength = 0, atsLength = 0
        let ok = nfctap_target_iso14443a(target, &atqa, &sak, &uid, &uidLength, &ats, &atsLength)
        guard ok == 1 else { return nil }
        return LibNFCTarget(atqa: atqa, sak: sak, uid: Array(uid.prefix(uidLength)), ats: Array(ats.prefix(atsLength)))
    }

    /// Wraps nfc_initiator_transceive_bytes: sends `bytes` to the selected target and returns its
    /// answer. With easy framing (the default) this is the PN53x's InDataExchange: ISO-DEP
    /// blocks or MIFARE framing are handled by the chip, CRC_A too. `timeout` nil = no timeout.
    /// - Throws: `LibNFCError` (`.rfTransmission` when the tag did not answer or answered garbage,
    ///   `.targetReleased`, `.timeout`, `.io`).
    public func transceive(_ bytes: [UInt8], timeout: Duration? = .seconds(1),
                           maxReplyLength: Int = LibNFCDevice.maxReplyLength) throws(LibNFCError) -> [UInt8] {
        guard let observer = LibNFCExchanges.observer else {
            return try transceiveOnce(bytes, timeout: timeout, maxReplyLength: maxReplyLength)
        }
        let start = ContinuousClock.now
        do throws(LibNFCError) {
            let reply = try transceiveOnce(bytes, timeout: timeout, maxReplyLength: maxReplyLength)
            observer.transceived(connstring: connstring, command: bytes, reply: reply, error: nil, duration: .now - start)
            return reply
        } catch {
            observer.transceived(connstring: connstring, command: bytes, reply: nil, error: error, duration: .now - start)
            throw error
        }
    }

    private func transceiveOnce(_ bytes: [UInt8], timeout: Duration?, maxReplyLength: Int) throws(LibNFCError) -> [UInt8] {
        let h = try device()
        var reply = [UInt8](repeating: 0, count: max(1, maxReplyLength))
        let capacity = reply.count
        let n = try bytes.withUnsafeBufferPointer { tx throws(LibNFCError) in
            try reply.withUnsafeMutableBufferPointer { rx throws(LibNFCError) in
                try check(nfc_initiator_transceive_bytes(h, tx.baseAddress, tx.count, rx.baseAddress, capacity,
                                                         Self.libnfcMilliseconds(timeout)))
            }
        }
        return Array(reply.prefix(min(n, capacity)))
    }

    /// Sends one raw ISO 14443-3A frame with CRC_A appended by hand (libnfc's
    /// iso14443a_crc_append) and returns the answer as it came, CRC_A included: check and remove
    /// it with `removingCRCA(_:)`. Turns easy framing and chip CRC handling off for the exchange
    /// and back on afterwards (the PN532 would take `60` GET_VERSION for MIFARE AUTH in
    /// InDataExchange).
    /// - Throws: `LibNFCError`.
    public func transceiveRaw(_ frame: [UInt8], timeout: Duration? = .seconds(1)) throws(LibNFCError) -> [UInt8] {
        try setProperty(.easyFraming, false)
        do throws(LibNFCError) {
            try setProperty(.handleCRC, false)
        } catch {
            try? setProperty(.easyFraming, true)
            throw error
        }
        defer {
            try? setProperty(.handleCRC, true)
            try? setProperty(.easyFraming, true)
        }
        return try transceive(Self.appendingCRCA(frame), timeout: timeout)
    }

    /// A raw answer (`transceiveRaw`) without its CRC_A, once the CRC_A is checked.
    /// - Throws: `LibNFCRawFrameError` when the answer's CRC_A is wrong or missing.
    public static func removingCRCA(_ answer: [UInt8]) throws(LibNFCRawFrameError) -> [UInt8] {
        guard answer.count >= 2 else { throw LibNFCRawFrameError.tooShort(answer) }
        let body = Array(answer.dropLast(2))
        guard appendingCRCA(body) == answer else { throw LibNFCRawFrameError.badCRC(answer) }
        return body
    }

    /// `frame` followed by its CRC_A, computed by libnfc's iso14443a_crc_append.
    /// (libnfc's loop reads past the end of an empty frame, so an empty frame gets the CRC_A
    /// initial value `63 63` here without calling it.)
    public static func appendingCRCA(_ frame: [UInt8]) -> [UInt8] {
        if frame.isEmpty { return [0x63, 0x63] }
        var buffer = frame + [0, 0]
        buffer.withUnsafeMutableBufferPointer { iso14443a_crc_append($0.baseAddress, frame.count) }
        return buffer
    }

    /// Wraps nfc_initiator_target_is_present for the selected target. libnfc pings the tag
    /// (READ 0 for Ultralight/NTAG, an R(NAK) block for ISO-DEP): a tag exchange.
    /// Returns false when the target was released.
    /// - Throws: other `LibNFCError`s (`.invalidArgument` when nothing is selected, `.io`).
    public func targetIsPresent() throws(LibNFCError) -> Bool {
        let code = nfc_initiator_target_is_present(try device(), nil)
        if code == Int32(NFC_ETGRELEASED) { return false }
        try check(code)
        return true
    }

    /// Wraps nfc_initiator_deselect_target (InDeselect).
    /// - Throws: `LibNFCError`.
    public func deselect() throws(LibNFCError) {
        try check(nfc_initiator_deselect_target(try device()))
    }

    /// Wraps nfc_idle (InRelease, field off, PowerDown on a PN532).
    /// - Throws: `LibNFCError`.
    public func idle() throws(LibNFCError) {
        try check(nfc_idle(try device()))
    }

    /// libnfc's timeout argument: milliseconds, 0 = none.
    static func libnfcMilliseconds(_ timeout: Duration?) -> Int32 {
        guard let timeout else { return 0 }
        let c = timeout.components
        let (whole, overflow) = c.seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return c.seconds < 0 ? 1 : Int32.max }
        let ms = whole.addingReportingOverflow(c.attoseconds / 1_000_000_000_000_000).partialValue
        return Int32(clamping: max(1, ms))
    }
}

/// A raw frame's answer failed the CRC_A check.
public enum LibNFCRawFrameError: Error, Equatable, Sendable {
    /// Fewer than 2 bytes came back: no room for a CRC_A.
    case tooShort([UInt8])
    /// The last two bytes are not the CRC_A of the rest.
    case badCRC([UInt8])
}
