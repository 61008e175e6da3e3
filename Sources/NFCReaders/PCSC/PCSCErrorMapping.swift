import Glibc
import NFCTags
import PCSC
import ReaderCore

// The PC/SC boundary: SCARD_* codes become TagError / ReaderError here and nowhere else
// (docs/architecture.md "Errors").

extension PCSCBackend {
    /// How to get pcscd running: the one piece of advice `scan`, the sessions and `doctor` all give.
    public static let serviceFix: String = {
        let sudo = AdminCommand.sudo
        return "\(sudo)systemctl enable --now pcscd.socket (without systemd: \(sudo)pcscd; "
            + "if it is not installed: \(AdminCommand.install("pcscd libccid")))"
    }()

    /// The message when pcscd cannot be reached.
    public static let serviceHint = "pcscd is not running: " + serviceFix
}

extension PCSCError {
    /// True for the codes that mean pcscd itself is gone (not running, stopped, connection lost).
    var meansServiceGone: Bool {
        self == .noService || self == .serviceStopped || self == .commError
    }

    /// The error a `Transceiver` throws for this code during an exchange (docs/architecture.md "Errors").
    var tagError: TagError {
        switch self {
        case .removedCard, .noSmartcard, .resetCard: return .tagLost
        case .readerUnavailable, .unknownReader: return .readerGone
        case .sharingViolation: return .readerBusy
        // pcscd gone mid-exchange: SCARD_F_COMM_ERROR from SCardTransmit (fault matrix: pcscd killed).
        case .noService, .serviceStopped, .commError: return .readerGone
        default: return .transport(code: rawValue, message: description)
        }
    }

    /// The error a backend call (list, connect, monitor) throws for this code (docs/architecture.md "Errors").
    func readerError(reader: String) -> ReaderError {
        switch self {
        case .noService, .serviceStopped, .commError: return .serviceUnavailable(hint: PCSCBackend.serviceHint)
        case .sharingViolation: return .readerBusy(reader)
        case .readerUnavailable, .unknownReader: return .readerGone(reader)
        case .removedCard, .noSmartcard, .resetCard: return .tagGone
        default: return .other(code: rawValue, message: description)
        }
    }
}

/// Runs `body`, turning a thrown `PCSCError` into the `ReaderError` for `reader`
/// (docs/architecture.md "Errors").
func mappingReaderErrors<T>(reader: String = "", _ body: () throws(PCSCError) -> T) throws(ReaderError) -> T {
    do throws(PCSCError) {
        return try body()
    } catch {
        throw error.readerError(reader: reader)
    }
}
