import Foundation
import LibNFC
import NFCTags
import ReaderCore
import Synchronization

/// Readers reached through libnfc (PN532 / PN533 boards, ACR122U over USB): named
/// `libnfc:<connstring>`. libnfc has no event API, so a monitor thread polls (one anticollision
/// round every `pollInterval`) and pings a present tag every `presenceInterval`.
///
/// Devices: the explicit list given to `init`, else `LIBNFC_DEVICE` / `LIBNFC_DEFAULT_DEVICE`,
/// else `device.connstring` in `/etc/nfc/libnfc.conf`, else libnfc's scan (which ignores
/// `/dev/pts/*`). An opened device stays open until `close()` or deinit.
public final class LibNFCBackend: ReaderBackend, Sendable {
    public let kind = ReaderBackendKind.libnfc

    /// Timing of the monitor and of tag exchanges.
    public struct Timing: Sendable {
        /// Between anticollision rounds while no tag is present.
        public var pollInterval: Duration
        /// Between presence checks while a tag is present and no connection is open.
        public var presenceInterval: Duration
        /// Between reopen attempts after a device was lost.
        public var retryInterval: Duration
        /// Per tag exchange.
        public var exchangeTimeout: Duration

        public init(pollInterval: Duration = .milliseconds(100), presenceInterval: Duration = .milliseconds(250),
                    retryInterval: Duration = .milliseconds(500), exchangeTimeout: Duration = .seconds(1)) {
            self.pollInterval = pollInterval
            self.presenceInterval = presenceInterval
            self.retryInterval = retryInterval
            self.exchangeTimeout = exchangeTimeout
        }
    }

    public let timing: Timing
    private let explicitDevices: [String]?
    private let environment: [String: String]
    private let configPath: String
    /// The libnfc context and the devices, made on first use.
    private struct Devices {
        var context: LibNFCContext?
        var slots: [String: LibNFCReaderSlot] = [:]
    }

    private let devices = Mutex(Devices())
    private let presenceCounter = Atomic<UInt64>(0)

    /// - Parameters:
    ///   - devices: connstrings to use (e.g. `["pn532_uart:/dev/ttyUSB0"]`); nil = discover.
    ///   - environment: where `LIBNFC_DEVICE` / `LIBNFC_DEFAULT_DEVICE` are looked up.
    ///   - configPath: libnfc's configuration file (read for `device.connstring`).
    public init(devices: [String]? = nil,
                environment: [String: String] = LibNFCBackend.deviceEnvironment(),
                configPath: String = "/etc/nfc/libnfc.conf",
                timing: Timing = Timing()) {
        explicitDevices = devices
        self.environment = environment
        self.configPath = configPath
        self.timing = timing
    }

    deinit { close() }

    /// Closes every open device (nfc_close).
    public func close() {
        let all = devices.withLock { Array($0.slots.values) }
        for slot in all { slot.close() }
    }

    /// The libnfc context, created on first use.
    func sharedContext() throws(LibNFCError) -> LibNFCContext {
        try devices.withLock { devices throws(LibNFCError) in
            if let context = devices.context { return context }
            let created = try LibNFCContext()
            devices.context = created
            return created
        }
    }

    /// The connstrings to use now (configured, or scanned by libnfc).
    /// - Throws: `ReaderError.serviceUnavailable` when libnfc cannot start.
    func connstrings() throws(ReaderError) -> [String] {
        let config = try? String(contentsOfFile: configPath, encoding: .utf8)
        if let configured = LibNFCDeviceList.configured(explicit: explicitDevices, environment: environment, configText: config) {
            return configured
        }
        do throws(LibNFCError) {
            return try sharedContext().listDevices()
        } catch {
            throw ReaderError.serviceUnavailable(hint: "libnfc could not start: \(error)")
        }
    }

    func slot(for connstring: String) -> LibNFCReaderSlot {
        devices.withLock { devices in
            if let slot = devices.slots[connstring] { return slot }
            let slot = LibNFCReaderSlot(connstring: connstring, context: { [weak self] () throws(LibNFCError) in
                guard let self else { throw LibNFCError.noSuchDevice }
                return try self.sharedContext()
            })
            devices.slots[connstring] = slot
            return slot
        }
    }

    func nextPresence() -> UInt64 {
        presenceCounter.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// The devices that can be opened now (opening them if needed; they stay open).
    /// - Throws: `ReaderError.serviceUnavailable` when libnfc cannot start.
    public func listReaders() throws(ReaderError) -> [ReaderInfo] {
        try connstrings().compactMap { connstring in
            let slot = slot(for: connstring)
            return (try? slot.withDevice { _, _ in }) != nil ? slot.info : nil
        }
    }

    /// Polls every configured device on one background thread until `stop()`.
    /// - Throws: `ReaderError.serviceUnavailable` when libnfc cannot start.
    public func startMonitoring(_ handler: @escaping @Sendable (ReaderEvent) -> Void) throws(ReaderError) -> ReaderMonitor {
        let slots = try connstrings().map { slot(for: $0) }
        return LibNFCMonitor(backend: self, slots: slots, handler: handler)
    }

    /// One anticollision round on `reader` now: the tag in the field, or nil.
    /// - Throws: `ReaderError.readerNotFound` for a name that is not a libnfc reader,
    ///   `.readerGone` when the device cannot be opened or failed.
    public func detectTag(on reader: ReaderInfo) throws(ReaderError) -> DetectedTag? {
        guard let connstring = LibNFCDeviceList.connstring(readerName: reader.name) else {
            throw ReaderError.readerNotFound(reader.name)
        }
        let slot = slot(for: connstring)
        do {
            let target = try slot.withDevice { device, state throws(LibNFCError) in
                let found = try device.selectAnyTarget()
                state.target = found
                return found
            }
            return target.map { detected($0, on: slot) }
        } catch {
            throw ReaderError.readerGone(reader.name)
        }
    }

    func detected(_ target: LibNFCTarget, on slot: LibNFCReaderSlot) -> DetectedTag {
        let description = SynthesizedATR.describe(target)
        if let feliCa = target.feliCa {
            return DetectedTag(reader: slot.info, feliCa: FeliCaIdentity(idm: feliCa.idm, pmm: feliCa.pmm, systemCode: feliCa.systemCode),
                               atr: description.atr, presence: nextPresence())
        }
        var tag = DetectedTag(reader: slot.info, technology: description.technology, uid: target.uid,
                              atr: description.atr, historicalBytes: description.historical,
                              presence: nextPresence())
        tag.atqa = target.atqa
        tag.sak = target.sak
        return tag
    }

    /// Re-selects the tag (a fresh activation, like a PC/SC connect) and opens a connection.
    /// `exclusive` has no meaning here: libnfc always holds its device exclusively.
    /// - Throws: `ReaderError.readerNotFound`, `.readerGone`, `.tagGone` (no tag, or another UID).
    public func connect(to tag: DetectedTag, exclusive: Bool) throws(ReaderError) -> TagConnection {
        guard let connstring = LibNFCDeviceList.connstring(readerName: tag.reader.name) else {
            throw ReaderError.readerNotFound(tag.reader.name)
        }
        let slot = slot(for: connstring)
        let selected: LibNFCTarget?
        do throws(LibNFCError) {
            selected = try slot.withDevice { device, state throws(LibNFCError) -> LibNFCTarget? in
                let found: LibNFCTarget?
                if let known = state.target, known.uid == tag.uid {
                    found = try device.reselect(known)
                } else {
                    found = try device.selectAnyTarget()
                }
                state.target = found
                guard let found, found.uid == tag.uid else { return nil }
                state.connectionOpen = true
                return found
            }
        } catch where TagError.isDeviceFailure(error) {
            // The libnfc boundary for backend calls (docs/architecture.md "Errors").
            throw ReaderError.readerGone(tag.reader.name)
        } catch {
            throw ReaderError.other(code: error.rawValue, message: error.description)
        }
        guard let target = selected else { throw ReaderError.tagGone }
        ExchangeTrace.active?.connected(reader: tag.reader.name, atr: tag.atr)
        return LibNFCTagConnection(tag: tag, target: target, slot: slot, timeout: timing.exchangeTimeout)
    }
}

extension LibNFCBackend {
    /// `LIBNFC_DEVICE` and `LIBNFC_DEFAULT_DEVICE` from the process environment (the default
    /// `environment` of the initialisers).
    public static func deviceEnvironment() -> [String: String] { LibNFCDeviceList.deviceEnvironment() }

    /// The backend the tools use by default: only devices named in `LIBNFC_DEVICE` /
    /// `LIBNFC_DEFAULT_DEVICE` or libnfc.conf, never libnfc's own USB scan, which would fight
    /// pcscd over readers such as the ACR122U (specs §4; issue 5: PC/SC first, then configured
    /// libnfc devices).
    /// `adding` names more devices (`--reader libnfc:<connstring>`): opened whatever libnfc's
    /// configuration says, each once.
    public static func configuredDevicesOnly(adding extra: [String] = [],
                                             environment: [String: String] = LibNFCBackend.deviceEnvironment(),
                                             configPath: String = "/etc/nfc/libnfc.conf") -> LibNFCBackend {
        let config = try? String(contentsOfFile: configPath, encoding: .utf8)
        var devices = LibNFCDeviceList.configured(explicit: nil, environment: environment, configText: config) ?? []
        for device in extra where !devices.contains(device) { devices.append(device) }
        return LibNFCBackend(devices: devices, environment: environment, configPath: configPath)
    }
}
