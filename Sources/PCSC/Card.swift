import CPCSCLite

/// A connection to a card (or, with `ShareMode.direct`, to a reader): an `SCARDHANDLE`.
/// `deinit` disconnects with `.leave` if `disconnect` was not called.
public final class Card {
    /// Kept so that the context outlives its card handles.
    public let context: Context
    public let reader: String
    /// The protocol pcsc-lite negotiated (T=0 or T=1; empty for a direct connection).
    public let activeProtocol: CardProtocols
    private var handle: SCARDHANDLE
    private var connected = true

    init(context: Context, handle: SCARDHANDLE, reader: String, activeProtocol: CardProtocols) {
        self.context = context
        self.handle = handle
        self.reader = reader
        self.activeProtocol = activeProtocol
    }

    deinit {
        if connected { _ = LibraryGate.call { SCardDisconnect(handle, DWORD(Disposition.leave.rawValue)) } }
    }

    /// Sends one APDU and returns the reply, data + SW1 SW2 (wraps SCardTransmit).
    /// - Throws: `.removedCard`, `.resetCard`, `.noSmartcard`, `.readerUnavailable`,
    ///   `.invalidHandle` after `disconnect`, …
    public func transmit(_ apdu: [UInt8]) throws(PCSCError) -> [UInt8] {
        guard let observer = PCSCExchanges.observer else { return try transmitOnce(apdu) }
        let start = ContinuousClock.now
        do throws(PCSCError) {
            let reply = try transmitOnce(apdu)
            observer.transmitted(reader: reader, command: apdu, reply: reply, error: nil, duration: .now - start)
            return reply
        } catch {
            observer.transmitted(reader: reader, command: apdu, reply: nil, error: error, duration: .now - start)
            throw error
        }
    }

    private func transmitOnce(_ apdu: [UInt8]) throws(PCSCError) -> [UInt8] {
        guard connected else { throw PCSCError.invalidHandle }
        let pci: UnsafePointer<SCARD_IO_REQUEST>
        if activeProtocol.contains(.t1) { pci = nfctap_pci_t1() }
        else if activeProtocol.contains(.t0) { pci = nfctap_pci_t0() }
        else { pci = nfctap_pci_raw() }
        var reply = [UInt8](repeating: 0, count: Int(nfctap_max_buffer_size_extended()))
        var length = DWORD(reply.count)
        try check(LibraryGate.call { SCardTransmit(handle, pci, apdu, DWORD(apdu.count), nil, &reply, &length) })
        return Array(reply.prefix(Int(length)))
    }

    /// Sends a reader control (escape) command (wraps SCardControl).
    /// - Parameter code: a control code, usually `controlCode(n)` (SCARD_CTL_CODE).
    /// - Throws: `PCSCError` (`.notTransacted` when the driver refuses the code, …).
    public func control(code: UInt, _ data: [UInt8]) throws(PCSCError) -> [UInt8] {
        guard connected else { throw PCSCError.invalidHandle }
        var reply = [UInt8](repeating: 0, count: Int(nfctap_max_buffer_size_extended()))
        var length: DWORD = 0
        try check(LibraryGate.call { SCardControl(handle, DWORD(code), data, DWORD(data.count), &reply, DWORD(reply.count), &length) })
        return Array(reply.prefix(Int(length)))
    }

    /// A reader or card attribute such as `SCARD_ATTR_VENDOR_IFD_VERSION` (wraps SCardGetAttrib).
    /// - Parameter id: the attribute's identifier (`SCARD_ATTR_VALUE(class, tag)`).
    /// - Throws: `PCSCError` (`.unsupportedFeature` when the driver does not report it, …).
    public func attribute(_ id: UInt) throws(PCSCError) -> [UInt8] {
        guard connected else { throw PCSCError.invalidHandle }
        var value = [UInt8](repeating: 0, count: 264)
        var length = DWORD(value.count)
        try check(LibraryGate.call { SCardGetAttrib(handle, DWORD(id), &value, &length) })
        return Array(value.prefix(min(Int(length), value.count)))
    }

    /// Re-establishes the connection, resetting the card by default (wraps SCardReconnect): a
    /// contactless reader powers the field off and on, so a tag that went mute is selected again.
    /// - Throws: `PCSCError` (`.noSmartcard` / `.removedCard` when the tag is gone, …).
    public func reconnect(share: ShareMode = .shared, protocols: CardProtocols = .any,
                          initialization: Disposition = .reset) throws(PCSCError) {
        guard connected else { throw PCSCError.invalidHandle }
        var active: DWORD = 0
        try check(LibraryGate.call { SCardReconnect(handle, DWORD(share.rawValue), DWORD(protocols.rawValue),
                                 DWORD(initialization.rawValue), &active) })
    }

    /// The reader name, state, protocol and ATR (wraps SCardStatus).
    /// - Throws: `.removedCard`, `.resetCard`, `.readerUnavailable`, …
    public func status() throws(PCSCError) -> CardStatus {
        guard connected else { throw PCSCError.invalidHandle }
        var name = [CChar](repeating: 0, count: Int(MAX_READERNAME) + 1)
        var nameLength = DWORD(name.count)
        var state: DWORD = 0
        var proto: DWORD = 0
        var atr = [UInt8](repeating: 0, count: Int(MAX_ATR_SIZE))
        var atrLength = DWORD(atr.count)
        try check(LibraryGate.call { SCardStatus(handle, &name, &nameLength, &state, &proto, &atr, &atrLength) })
        let names = Context.splitMultiString(name.prefix(min(Int(nameLength), name.count)).map { UInt8(bitPattern: $0) })
        return CardStatus(reader: names.first ?? reader, state: UInt(state),
                          activeProtocol: CardProtocols(rawValue: UInt(proto)),
                          atr: Array(atr.prefix(min(Int(atrLength), atr.count))))
    }

    /// Closes the connection (wraps SCardDisconnect). Later calls throw `.invalidHandle`;
    /// a second `disconnect` does nothing.
    /// - Parameter disposition: what to do with the card; `.leave` keeps it as it is.
    /// - Throws: `PCSCError` from pcsc-lite; the handle counts as closed either way.
    public func disconnect(_ disposition: Disposition = .leave) throws(PCSCError) {
        guard connected else { return }
        connected = false
        try check(LibraryGate.call { SCardDisconnect(handle, DWORD(disposition.rawValue)) })
    }
}
