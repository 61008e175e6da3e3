import Foundation
import LibNFC
import NFCTags
import ReaderCore

/// One libnfc device as the backend shares it between the monitor thread and tag connections.
/// libnfc devices are not thread-safe: every device call runs inside `withDevice` (one lock).
final class LibNFCReaderSlot: @unchecked Sendable {
    let connstring: String
    let info: ReaderInfo
    private let context: () throws -> LibNFCContext
    private let lock = NSLock()
    private var device: LibNFCDevice?
    /// The target libnfc selected last (nil: none, or it was released).
    private var target: LibNFCTarget?
    /// A `LibNFCTagConnection` is open: the monitor leaves the tag alone.
    private var connectionOpen = false

    init(connstring: String, context: @escaping () throws -> LibNFCContext) {
        self.connstring = connstring
        self.info = ReaderInfo(name: LibNFCDeviceList.readerName(connstring), backend: .libnfc)
        self.context = context
    }

    /// Runs `body` with the open device (opening and initialising it first when needed), under
    /// the slot's lock. A device failure (EIO, ENOTSUCHDEV) closes the device before rethrowing.
    /// - Throws: `LibNFCError` from opening or from `body`, and whatever `body` throws.
    func withDevice<T>(_ body: (LibNFCDevice, inout SlotState) throws -> T) throws -> T {
        try lock.withLock {
            let device = try openedDevice()
            var state = SlotState(target: target, connectionOpen: connectionOpen)
            defer {
                target = state.target
                connectionOpen = state.connectionOpen
            }
            do {
                return try body(device, &state)
            } catch let error as LibNFCError where TagError.isDeviceFailure(error) {
                closeLocked()
                state.target = nil
                throw error
            }
        }
    }

    struct SlotState {
        var target: LibNFCTarget?
        var connectionOpen: Bool
    }

    var isOpen: Bool { lock.withLock { device?.isOpen ?? false } }

    /// Interrupts a blocking libnfc call on another thread (nfc_abort_command).
    func abort() {
        // Not under `lock`: the blocked call holds it. LibNFCDevice.abort() is thread-safe.
        referenceLock.withLock { abortTarget }?.abort()
    }
    private let referenceLock = NSLock()
    private var abortTarget: LibNFCDevice?

    /// Marks the tag connection as ended without touching the device.
    func endConnection() {
        lock.withLock { connectionOpen = false }
    }

    /// Closes the device (nfc_close); the next `withDevice` reopens it.
    func close() {
        lock.withLock { closeLocked() }
    }

    private func closeLocked() {
        device?.close()
        device = nil
        referenceLock.withLock { abortTarget = nil }
        target = nil
        connectionOpen = false
    }

    private func openedDevice() throws -> LibNFCDevice {
        if let device, device.isOpen { return device }
        let opened = try context().open(connstring)
        do {
            try opened.initiatorInit()
            // One anticollision round per select: the monitor polls instead of blocking in libnfc.
            try opened.setProperty(.infiniteSelect, false)
        } catch {
            opened.close()
            throw error
        }
        device = opened
        referenceLock.withLock { abortTarget = opened }
        target = nil
        return opened
    }
}
