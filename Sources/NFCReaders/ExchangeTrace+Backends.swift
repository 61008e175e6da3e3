import LibNFC
import PCSC
import ReaderCore

extension ExchangeTrace {
    /// Installs `trace` for the whole process (PC/SC, libnfc, virtual readers); nil removes it.
    /// Call before the first session starts.
    public static func install(_ trace: ExchangeTrace?) {
        active = trace
        let observer = trace.map(ExchangeTraceObserver.init)
        PCSCExchanges.observer = observer
        LibNFCExchanges.observer = observer
    }
}

/// Hands what the PC/SC and libnfc wrappers see to an `ExchangeTrace`, which knows neither.
final class ExchangeTraceObserver: PCSCExchangeObserver, LibNFCExchangeObserver {
    let trace: ExchangeTrace

    init(_ trace: ExchangeTrace) {
        self.trace = trace
    }

    func connected(reader: String, atr: [UInt8]) {
        trace.connected(reader: reader, atr: atr)
    }

    func transmitted(reader: String, command: [UInt8], reply: [UInt8]?, error: (any Error)?, duration: Duration) {
        trace.exchanged(command: command, reply: reply, error: error, duration: duration)
    }

    func transceived(connstring: String, command: [UInt8], reply: [UInt8]?, error: (any Error)?, duration: Duration) {
        trace.exchanged(command: command, reply: reply, error: error, duration: duration)
    }
}
