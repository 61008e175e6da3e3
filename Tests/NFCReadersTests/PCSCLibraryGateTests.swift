import CPCSCLite
import Dispatch
import Foundation
@testable import PCSC
import Testing

/// Ring 1: the gate that keeps threads out of pcsc-lite while its destructor runs at exit
/// (`LibraryGate`, library_gate.h). Ring 3's `ShutdownTests` exits 600 times against pcscd.
@Suite struct PCSCLibraryGateTests {
    @Test("an open gate runs the call and returns its code")
    func openGateRunsTheCall() {
        let gate = LibraryGate(gate: nfctap_gate_new())
        defer { nfctap_gate_free(gate.gate) }
        var ran = false
        let code = gate.call { ran = true; return 0x42 }
        #expect(ran)
        #expect(code == 0x42)
    }

    @Test("a closed gate answers SCARD_E_NO_SERVICE without entering the library")
    func closedGateRefuses() {
        let gate = LibraryGate(gate: nfctap_gate_new())
        defer { nfctap_gate_free(gate.gate) }
        #expect(gate.close(waiting: .zero))
        var ran = false
        let code = gate.call { ran = true; return 0 }
        #expect(!ran)
        #expect(Int(code) == PCSCError.noService.rawValue)
    }

    @Test("closing waits for a call inside to return, and no call enters meanwhile")
    func closingWaitsForTheCallInside() {
        let gate = LibraryGate(gate: nfctap_gate_new())
        defer { nfctap_gate_free(gate.gate) }
        let held = HeldCall(in: gate)
        defer { held.left.wait() }  // (before the gate is freed)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.15) { held.release.signal() }
        #expect(gate.close(waiting: .seconds(5)))
        #expect(held.returned.wait(timeout: .now()) == .success, "close() returned while a call was inside")
        var ran = false
        _ = gate.call { ran = true; return 0 }
        #expect(!ran)
    }

    @Test("closing gives up after its limit when a call never returns")
    func closingHasALimit() {
        let gate = LibraryGate(gate: nfctap_gate_new())
        defer { nfctap_gate_free(gate.gate) }
        let held = HeldCall(in: gate)
        defer { held.left.wait() }
        #expect(!gate.close(waiting: .milliseconds(50)))
        held.release.signal()
    }
}

/// A call held inside a gate, on a thread of its own, until `release` is signalled.
private final class HeldCall: Sendable {
    let release = DispatchSemaphore(value: 0)
    /// Signalled inside the call, just before it returns.
    let returned = DispatchSemaphore(value: 0)
    /// Signalled once the thread is out of the gate.
    let left = DispatchSemaphore(value: 0)

    /// Returns once the call is inside `gate`.
    init(in gate: LibraryGate) {
        let entered = DispatchSemaphore(value: 0)
        Thread { [release, returned, left] in
            _ = gate.call {
                entered.signal()
                release.wait()
                returned.signal()
                return 0
            }
            left.signal()
        }.start()
        entered.wait()
    }
}
