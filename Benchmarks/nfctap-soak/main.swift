// nfctap-soak: the kiosk's runner under N virtual taps in this process, resources sampled
// (scripts/soak.sh). Prints the samples and PASS/FAIL on stdout; exit 0 = PASS, 1 = FAIL.
import ArgumentParser
import Foundation
import NFCTapKit

struct Soak: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nfctap-soak",
        abstract: "Soak the kiosk: N virtual taps in one process, resources sampled (scripts/soak.sh).",
        discussion: """
            A reader is unplugged and replugged every 300 taps and the reader service lost and restored every 1000. RSS (VmRSS), open descriptors and threads are sampled every --sample-every taps (default: taps / 40); growth, or a tap without exactly one JSON line, fails.

            Exit status: 0 PASS, 1 FAIL.
            """)

    @Argument(help: "Virtual taps (at least 100).")
    var taps: Int

    @Option(name: .customLong("sample-every"), help: ArgumentHelp("Sample resources every this many taps.", valueName: "n"))
    var sampleEvery: Int?

    @Flag(help: "Give (and count) reader feedback during the soak.")
    var feedback = false

    func validate() throws {
        if taps < 100 { throw ValidationError("taps must be at least 100") }
        if let every = sampleEvery, every < 1 { throw ValidationError("--sample-every must be at least 1") }
    }

    func run() throws {
        // As in `nfctap kiosk`: a closed stdout gives EPIPE, not a killed process.
        signal(SIGPIPE, SIG_IGN)
        let passed = KioskSoak(taps: taps, sampleEvery: sampleEvery ?? max(1, taps / 40), feedback: feedback).run()
        throw passed ? ExitCode(ExitStatus.ok) : ExitCode(ExitStatus.failure)
    }
}

Soak.main()
