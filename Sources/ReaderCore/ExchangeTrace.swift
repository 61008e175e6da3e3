import SafeText
import NDEF
import NFCTags
import Synchronization

/// `--trace`: every exchange with a reader or tag as it happens, the way pyscard's observer and
/// nfcpy's debug log show them, one line each:
///
///     connect Virtual PCD 00 00 ATR 3B 8F 80 01 …
///     > 00 A4 04 00 07 D2 76 00 00 85 01 01 00
///     < 90 00 (0.6 ms)
///
/// Commands as sent, replies as received (data then SW1 SW2 for APDUs), the time the exchange
/// took. It watches the lowest seams — `SCardConnect`/`SCardTransmit` (PC/SC), the libnfc
/// transceive, the virtual backend's reader — so every command path is covered, UID reads and
/// LED/buzzer commands included. UIDs appear in the trace.
///
/// The trace itself is pure: NFCReaders' `ExchangeTrace.install(_:)` also hands it to the PC/SC
/// and libnfc wrappers; here, `active` is what the virtual readers use.
public final class ExchangeTrace: Sendable {
    private let write: @Sendable (String) -> Void
    /// One line group at a time: the commands and replies of one exchange stay together.
    private let writing = Mutex(())

    /// A trace that hands each line (no newline) to `write`, one call at a time.
    public init(writingTo write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    private static let current = Mutex<ExchangeTrace?>(nil)

    /// The trace installed for the process, if any. Setting it reaches the virtual readers only;
    /// `ExchangeTrace.install(_:)` (NFCReaders) sets it and wires PC/SC and libnfc too.
    public static var active: ExchangeTrace? {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    // MARK: Lines

    /// A connection to the tag on `reader` opened.
    public func connected(reader: String, atr: [UInt8]) {
        emit(["connect \(Self.printable(reader))" + (atr.isEmpty ? "" : " ATR \(atr.hexString(separator: " "))")])
    }

    /// One exchange: the command, then the reply (or the error) with its duration.
    public func exchanged(command: [UInt8], reply: [UInt8]?, error: (any Error)?, duration: Duration) {
        let answer = reply.map { $0.isEmpty ? "(no data)" : $0.hexString(separator: " ") }
            ?? "error: \(Self.printable(error.map { String(describing: $0) } ?? "unknown"))"
        emit(["> \(command.hexString(separator: " "))", "< \(answer) (\(Self.milliseconds(duration)) ms)"])
    }

    private func emit(_ lines: [String]) {
        writing.withLock { _ in for line in lines { write(line) } }
    }

    /// Milliseconds with two decimals (an APDU through a local pcscd takes well under 1 ms).
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let hundredths = max(0, seconds * 100_000 + attoseconds / 10_000_000_000_000)
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// Reader names and errors come from devices: escaped (`SafeText`).
    static func printable(_ text: String) -> String { SafeText.escaped(text) }

}

/// A `Transceiver` that reports each exchange to the installed trace (virtual readers).
public final class TracedTransceiver: Transceiver {
    let base: any Transceiver
    let trace: ExchangeTrace

    public init(_ base: any Transceiver, trace: ExchangeTrace) {
        self.base = base
        self.trace = trace
    }

    public func transceive(_ command: [UInt8]) throws(TagError) -> [UInt8] {
        let start = ContinuousClock.now
        do throws(TagError) {
            let reply = try base.transceive(command)
            trace.exchanged(command: command, reply: reply, error: nil, duration: .now - start)
            return reply
        } catch {
            trace.exchanged(command: command, reply: nil, error: error, duration: .now - start)
            throw error
        }
    }
}
