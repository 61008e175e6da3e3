import CPCSCLite
#if canImport(Glibc)
import Glibc
#endif

/// A connection to pcscd (an `SCARDCONTEXT`). Released in `deinit`.
///
/// pcsc-lite serialises calls on one context, so a blocking `getStatusChange` holds it: give a
/// monitor its own context. `cancel()` is the exception and may be called from any thread.
/// Sendable: `handle` is a number that never changes; pcsc-lite serialises the calls on it.
public final class Context: Sendable {
    let handle: SCARDCONTEXT

    /// Wraps SCardEstablishContext(SCARD_SCOPE_SYSTEM).
    /// - Throws: `PCSCError.noService` when pcscd is not running, or another `PCSCError`.
    public init() throws(PCSCError) {
        var h: SCARDCONTEXT = 0
        try check(LibraryGate.call { SCardEstablishContext(DWORD(SCARD_SCOPE_SYSTEM), nil, nil, &h) })
        handle = h
    }

    deinit {
        _ = LibraryGate.call { SCardReleaseContext(handle) }
    }

    /// Wraps SCardIsValidContext: false once pcscd has gone away or the context was released.
    public var isValid: Bool {
        LibraryGate.call { SCardIsValidContext(handle) } == 0
    }

    /// The names of the readers attached now (wraps SCardListReaders). No reader → `[]`.
    /// - Throws: `PCSCError` (`.noService`, `.serviceStopped`, …).
    public func listReaders() throws(PCSCError) -> [String] {
        // The list can grow between the size query and the read: retry on a short buffer.
        for _ in 0..<4 {
            var length: DWORD = 0
            let sizeCode = LibraryGate.call { SCardListReaders(handle, nil, nil, &length) }
            if sizeCode == PCSCError.noReadersAvailable.rawValue { return [] }
            try check(sizeCode)
            guard length > 0 else { return [] }
            var buffer = [CChar](repeating: 0, count: Int(length))
            let code = LibraryGate.call { SCardListReaders(handle, nil, &buffer, &length) }
            if code == PCSCError.noReadersAvailable.rawValue { return [] }
            if code == PCSCError.insufficientBuffer.rawValue { continue }
            try check(code)
            let used = min(Int(length), buffer.count)
            return Self.splitMultiString(buffer[..<used].map { UInt8(bitPattern: $0) })
        }
        throw PCSCError.insufficientBuffer
    }

    /// Splits a pcsc-lite multi-string (`a\0b\0\0`) into its strings.
    static func splitMultiString(_ bytes: [UInt8]) -> [String] {
        bytes.split(separator: 0, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Waits until a reader in `states` differs from its `currentState` (wraps SCardGetStatusChange).
    /// Fills `eventState`, `eventCounter` and `atr` of every entry; include
    /// `ReaderState.plugAndPlayReader` to hear readers come and go.
    /// - Parameter timeout: nil waits forever (INFINITE).
    /// - Throws: `.timeout` when the timeout expires, `.cancelled` after `cancel()`,
    ///   `.noService`/`.serviceStopped` when pcscd goes away, `.unknownReader`.
    public func getStatusChange(_ states: inout [ReaderState], timeout: Duration?) throws(PCSCError) {
        let names = states.map { strdup($0.reader) }
        defer { names.forEach { free($0) } }
        var cStates = [SCARD_READERSTATE](repeating: SCARD_READERSTATE(), count: states.count)
        for i in states.indices {
            cStates[i].szReader = UnsafePointer(names[i])
            cStates[i].dwCurrentState = DWORD(states[i].currentStateWord)
        }
        let code = LibraryGate.call { SCardGetStatusChange(handle, Self.milliseconds(timeout), &cStates, DWORD(cStates.count)) }
        try check(code)
        for i in states.indices {
            states[i].setEventStateWord(UInt(cStates[i].dwEventState))
            let count = min(Int(cStates[i].cbAtr), Int(MAX_ATR_SIZE))
            states[i].atr = withUnsafeBytes(of: cStates[i].rgbAtr) { Array($0.prefix(count)) }
        }
    }

    /// A timeout in milliseconds for pcsc-lite; nil → INFINITE; never INFINITE by accident.
    static func milliseconds(_ timeout: Duration?) -> DWORD {
        guard let timeout else { return nfctap_infinite() }
        let (seconds, attoseconds) = timeout.components
        guard seconds >= 0 else { return 0 }
        let ms = seconds.multipliedReportingOverflow(by: 1000)
        let total = ms.overflow ? Int64.max : ms.partialValue.addingReportingOverflow(attoseconds / 1_000_000_000_000_000).partialValue
        return DWORD(min(UInt64(max(total, 0)), UInt64(nfctap_infinite()) - 1))
    }

    /// Makes a blocking `getStatusChange` on this context return `PCSCError.cancelled`
    /// (wraps SCardCancel). Safe to call from another thread.
    /// - Throws: `PCSCError` when pcscd cannot be reached.
    public func cancel() throws(PCSCError) {
        try check(LibraryGate.call { SCardCancel(handle) })
    }

    /// Opens a connection to the card in `reader` (wraps SCardConnect).
    /// - Parameters:
    ///   - share: `.shared`, `.exclusive`, or `.direct` for the reader itself.
    ///   - protocols: accepted protocols; use `[]` with `.direct`.
    /// - Throws: `.noSmartcard`, `.sharingViolation`, `.unknownReader`, `.readerUnavailable`, …
    public func connect(reader: String, share: ShareMode, protocols: CardProtocols = .any) throws(PCSCError) -> Card {
        var card: SCARDHANDLE = 0
        var active: DWORD = 0
        try check(LibraryGate.call { SCardConnect(handle, reader, DWORD(share.rawValue), DWORD(protocols.rawValue), &card, &active) })
        let connected = Card(context: self, handle: card, reader: reader, activeProtocol: CardProtocols(rawValue: UInt(active)))
        if let observer = PCSCExchanges.observer {
            observer.connected(reader: reader, atr: share == .direct ? [] : (try? connected.status().atr) ?? [])
        }
        return connected
    }
}
