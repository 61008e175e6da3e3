import Foundation
@testable import NFCTapKit
import Testing

/// `SignalTrap`: nothing lost between the trap and the first signal, and nothing leaked into the
/// programs a command starts.
@Suite(.serialized) struct SignalTrapTests {
    @Test("a signal sent right after the trap was made is delivered, every time (200 rounds)")
    func signalRightAfterTrapIsDelivered() async {
        var delivered = 0
        for _ in 0..<200 {
            let waiter = SignalWaiter([SIGUSR1])
            kill(getpid(), SIGUSR1)
            if await waiter.next(timeout: .seconds(5)) == SIGUSR1 { delivered += 1 }
        }
        #expect(delivered == 200)
    }

    @Test("every live trap on a signal gets it; after one trap is gone the other still does and the process goes on")
    func everyLiveTrapGetsTheSignal() async {
        let first = SignalWaiter([SIGUSR2])
        var second: SignalWaiter? = SignalWaiter([SIGUSR2])
        kill(getpid(), SIGUSR2)
        #expect(await first.next(timeout: .seconds(5)) == SIGUSR2)
        #expect(await second?.next(timeout: .seconds(5)) == SIGUSR2)
        second = nil
        kill(getpid(), SIGUSR2)  // trapped for the process's life: dropped, the process goes on
        #expect(await first.next(timeout: .seconds(5)) == SIGUSR2)
    }

    @Test("a program started while SIGINT/SIGTERM are trapped does not inherit them as ignored")
    func childrenGetDefaultDispositions() throws {
        let trap = SignalTrap([SIGINT, SIGTERM], queue: DispatchQueue(label: "test.signals")) { _ in }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/cat")
        child.arguments = ["/proc/self/status"]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let status = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        withExtendedLifetime(trap) {}
        let line = status.split(separator: "\n").first { $0.hasPrefix("SigIgn:") }
        let ignored = line.flatMap { UInt64($0.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespaces), radix: 16) }
        #expect(ignored != nil)
        #expect((ignored ?? 0) & (1 << UInt64(SIGINT - 1)) == 0, "SIGINT is ignored in the child")
        #expect((ignored ?? 0) & (1 << UInt64(SIGTERM - 1)) == 0, "SIGTERM is ignored in the child")
    }
}
