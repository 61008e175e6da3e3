import Foundation
import LibNFC
import NFCTags
import ReaderCore
import Synchronization

/// One libnfc device as the backend shares it between the monitor thread and tag connections.
/// libnfc devices are not thread-safe: every device call runs inside `withDevice` (one lock).
final class LibNFCReaderSlot: Sendable {
    let connstring: String
    let info: ReaderInfo
    private let context: @Sendable () throws(LibNFCError) -> LibNFCContext

    /// The device and what the slot knows of it; every libnfc call on the device holds this lock.
    private struct Fields {
        var device: LibNFCDevice?
        /// The target libnfc selected last (nil: none, or it was released).
        var target: LibNFCTarget?
        /// A `LibNFCTagConnection` is open: the monitor leaves the tag alone.
        var connectionOpen = false
    }

    private let fields = Mutex(Fields())
    /// The open device, for `abort()` from another thread while a call holds `fields`.
    private let abortTarget = Mutex<LibNFCDevice?>(nil)

    init(connstring: String, context: @escaping @Sendable () throws(LibNFCError) -> LibNFCContext) {
        self.connstring = connstring
        self.info = ReaderInfo(name: LibNFCDeviceList.readerName(connstring), backend: .libnfc)
        self.context = context
    }

    /// Runs `body` with the open device (opening and initialising it first when needed), under
    /// the slot's lock. A device failure (EIO, ENOTSUCHDEV) closes the device before rethrowing.
    /// - Throws: `LibNFCError` from opening or from `body`.
    func withDevice<T: Sendable>(_ body: (LibNFCDevice, inout SlotState) throws(LibNFCError) -> T) throws(LibNFCError) -> T {
        try fields.withLock { fields throws(LibNFCError) in
            let device = try openedDevice(&fields)
            var state = SlotState(target: fields.target, connectionOpen: fields.connectionOpen)
            defer {
                fields.target = state.target
                fields.connectionOpen = state.connectionOpen
            }
            do throws(LibNFCError) {
                return try body(device, &state)
            } catch where TagError.isDeviceFailure(error) {
                close(&fields)
                state.target = nil
                throw error
            }
        }
    }

    struct SlotState {
        var target: LibNFCTarget?
        var connectionOpen: Bool
    }

    var isOpen: Bool { fields.withLock { $0.device?.isOpen ?? false } }

    /// Interrupts a blocking libnfc call on another thread (nfc_abort_command).
    func abort() {
        // Not under `fields`: the blocked call holds it. LibNFCDevice.abort() is thread-safe.
        abortTarget.withLock { $0 }?.abort()
    }

    /// Marks the tag connection as ended without touching the device.
    func endConnection() {
        fields.withLock { $0.connectionOpen = false }
    }

    /// Closes the device (nfc_close); the next `withDevice` reopens it.
    func close() {
        fields.withLock { close(&$0) }
    }

    private func close(_ fields: inout Fields) {
        fields.device?.close()
        fields.device = nil
        abortTarget.withLock { $0 = nil }
        fields.target = nil
        fields.connectionOpen = false
    }

    private func openedDevice(_ fields: inout Fields) throws(LibNFCError) -> LibNFCDevice {
        if let device = fields.device, device.isOpen { return device }
        let opened = try context().open(connstring)
        do throws(LibNFCError) {
            try opened.initiatorInit()
            // One anticollision round per select: the monitor polls instead of blocking in libnfc.
            try opened.setProperty(.infiniteSelect, false)
        } catch {
            opened.close()
            throw error
        }
        fields.device = opened
        abortTarget.withLock { $0 = opened }
        fields.target = nil
        return opened
    }
}
