import CPCSCLite

/// The gate every call into libpcsclite passes, so that none is inside the library when it tears
/// itself down (library_gate.h). pcsc-lite's destructor frees its list of contexts without its
/// lock: a thread inside a call at that moment (a context released on a queue as a session ends,
/// a card disconnected on its lane) or entering one afterwards walks freed memory, and the process
/// dies with SIGSEGV after `exit(0)`. A destructor of CPCSCLite closes the process's gate after
/// every `atexit` handler has run (`MonitorsAtExit`, the lanes' drain); a call after that answers
/// `SCARD_E_NO_SERVICE` without entering the library.
struct LibraryGate: @unchecked Sendable {  // the C gate is atomic
    /// The gate of every pcsc-lite call of the process.
    static let pcscLite = LibraryGate(gate: nfctap_pcsclite_gate())

    let gate: OpaquePointer

    /// Runs `body` (one pcsc-lite call) unless the gate is closed; closed, answers SCARD_E_NO_SERVICE.
    @inline(__always)
    func call(_ body: () -> LONG) -> LONG {
        guard nfctap_gate_enter(gate) != 0 else { return LONG(PCSCError.noService.rawValue) }
        defer { nfctap_gate_leave(gate) }
        return body()
    }

    /// Shorthand for `LibraryGate.pcscLite.call(body)`.
    @inline(__always)
    static func call(_ body: () -> LONG) -> LONG { pcscLite.call(body) }

    /// Closes the gate, then waits at most `limit` for the calls inside.
    /// - Returns: whether every call had returned.
    @discardableResult
    func close(waiting limit: Duration) -> Bool {
        let (seconds, attoseconds) = limit.components
        let microseconds = max(0, min(Int64(UInt32.max), seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
        return nfctap_gate_close(gate, UInt32(microseconds)) != 0
    }
}
