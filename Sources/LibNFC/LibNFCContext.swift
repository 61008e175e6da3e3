import CLibNFC
import Foundation
import Synchronization

/// A libnfc library context (`nfc_context`). Wraps nfc_init / nfc_exit; devices opened from it
/// keep it alive. Listing and opening are serialized by an internal lock (libnfc's context is not
/// thread-safe).
public final class LibNFCContext: Sendable {
    /// The `nfc_context`; every call that uses it holds this lock.
    private let handle: Mutex<OpaquePointer>

    /// Wraps nfc_init. libnfc reads its configuration here: `/etc/nfc/libnfc.conf`,
    /// `/etc/nfc/devices.d/*.conf`, and the environment variables `LIBNFC_DEFAULT_DEVICE`,
    /// `LIBNFC_DEVICE` (then the only device), `LIBNFC_AUTO_SCAN`, `LIBNFC_INTRUSIVE_SCAN`,
    /// `LIBNFC_LOG_LEVEL`. (libnfc 1.8 has no variable naming another configuration file.)
    /// - Throws: `LibNFCError.software` when libnfc cannot allocate its context.
    public init() throws(LibNFCError) {
        var context: OpaquePointer?
        Self.live.withLock { count in
            nfc_init(&context)
            if context != nil { count += 1 }
        }
        guard let created = context else { throw LibNFCError.software }
        handle = Mutex(created)
    }

    /// nfc_exit frees libnfc's process-wide driver list along with the context, which breaks every
    /// other live context ("no driver available"). So only the last context alive calls it; an
    /// earlier one leaves its small `nfc_context` allocated (found by the fault matrix).
    deinit {
        handle.withLock { handle in
            Self.live.withLock { count in
                count -= 1
                if count == 0 { nfc_exit(handle) }
            }
        }
    }

    /// Contexts alive in this process.
    private static let live = Mutex(0)

    /// libnfc's version string (`nfc_version`), e.g. "1.8.0".
    public static var version: String { String(cString: nfc_version()) }

    /// Wraps nfc_list_devices: the connstrings of the configured devices, then of the devices
    /// found by auto-scan. Empty when there are none. Auto-scan never probes `/dev/pts/*`
    /// (a PN532 emulator on a pty must be named, e.g. with `LIBNFC_DEVICE`).
    public func listDevices(max: Int = 16) -> [String] {
        let slot = nfctap_connstring_size()
        let count = Swift.max(1, max)
        var buffer = [CChar](repeating: 0, count: slot * count)
        let found = handle.withLock { handle in
            buffer.withUnsafeMutableBufferPointer { nfctap_list_devices(handle, $0.baseAddress, count) }
        }
        return (0..<Swift.min(found, count)).map { i in
            buffer.withUnsafeBufferPointer { p in
                let start = p.baseAddress! + i * slot
                // Connstrings are NUL-terminated inside their slot; stop at the slot's end regardless.
                let length = strnlen(start, slot)
                return String(decoding: UnsafeRawBufferPointer(start: start, count: length), as: UTF8.self)
            }
        }
    }

    /// Wraps nfc_open: opens the device named by `connstring` (e.g. `pn532_uart:/dev/ttyUSB0`).
    /// - Throws: `LibNFCError.noSuchDevice` when libnfc cannot open it (libnfc gives no reason;
    ///   `LIBNFC_LOG_LEVEL=3` prints one).
    public func open(_ connstring: String) throws(LibNFCError) -> LibNFCDevice {
        let device: OpaquePointer? = handle.withLock { nfc_open($0, connstring) }
        guard let device else { throw LibNFCError.noSuchDevice }
        return LibNFCDevice(context: self, handle: device, connstring: connstring)
    }
}
