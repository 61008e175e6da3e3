import LibNFC
import NFCTags

extension TagError {
    /// A libnfc error during a tag command, at the backend boundary: ETGRELEASED / ETIMEOUT →
    /// `.tagLost`; EIO / ENOTSUCHDEV → `.readerGone`; anything else → `.transport` with the code.
    /// (ERFTRANS is resolved by the caller first: the tag is gone or it answered badly.)
    /// docs/architecture.md "Errors".
    init(libnfc error: LibNFCError) {
        switch error {
        case .targetReleased, .timeout: self = .tagLost
        case .io, .noSuchDevice: self = .readerGone
        default: self = .transport(code: error.rawValue, message: error.description)
        }
    }

    /// Whether the device itself is unusable after this error (it must be reopened).
    static func isDeviceFailure(_ error: LibNFCError) -> Bool {
        error == .io || error == .noSuchDevice
    }
}
