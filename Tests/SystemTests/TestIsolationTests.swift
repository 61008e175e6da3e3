import Foundation
import Testing

/// The test pcscd and its vpcd readers are private to the test run (issue 16): vpcd's driver binds
/// its ports on every address, so scripts/test.sh runs ring 3 in a network namespace with only
/// loopback; the pcscd reads its own reader.conf.d, never /etc/reader.conf.d; and a pcscd of the
/// machine with vpcd on the same ports (as vsmartcard-vpcd's package sets up) does not stop a test
/// run, run after run.
@Suite(.serialized) struct TestIsolationTests {
    static let root = SystemEnvironment.packageRoot

    @Test(.enabled(if: SystemEnvironment.available("pcscd")))
    func ringThreeRunsInANetworkNamespaceWithOnlyLoopback() throws {
        let mine = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/net")
        let machine = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/1/ns/net")
        #expect(mine != machine, "the tests share the machine's network namespace (\(mine))")
        let links = try runProgram("/usr/sbin/ip", ["-o", "link", "show"]).stdout
            .split(separator: "\n").compactMap { $0.split(separator: ":").dropFirst().first?.trimmingCharacters(in: .whitespaces) }
        #expect(links == ["lo"], "interfaces: \(links)")
        // vpcd listens inside it (on every address of a namespace that only has loopback).
        let listening = try runProgram("/usr/bin/ss", ["-Hltn", "sport = :\(TestPCSCD.port0)"]).stdout
        #expect(!listening.isEmpty)
    }

    @Test(.enabled(if: SystemEnvironment.available("pcscd")))
    func thePcscdReadsItsOwnReaderConfiguration() throws {
        let env = SystemEnvironment.environment
        let dir = try #require(env["NFCTAP_PCSCD_DIR"])
        let runDir = try #require(env["NFCTAP_TEST_RUN_DIR"])
        #expect(dir.hasPrefix(runDir))
        let pid = try String(contentsOfFile: dir + "/pcscd.pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let argv = try String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8).split(separator: "\0").map(String.init)
        let config = try #require(argv.firstIndex(of: "--config").map { argv[$0 + 1] }, "pcscd \(argv)")
        #expect(config == dir + "/reader.conf.d")
        let conf = try String(contentsOfFile: config + "/vpcd", encoding: .utf8)
        #expect(conf.contains("DEVICENAME   /dev/null:0x\(String(TestPCSCD.port0, radix: 16, uppercase: true))"))
        let driver = try #require(conf.split(separator: "\n").first { $0.hasPrefix("LIBPATH") }?.split(separator: " ").last.map(String.init))
        #expect(FileManager.default.fileExists(atPath: driver))
        // Nothing of this run in the machine's configuration.
        for file in (try? FileManager.default.contentsOfDirectory(atPath: "/etc/reader.conf.d")) ?? [] {
            let text = (try? String(contentsOfFile: "/etc/reader.conf.d/" + file, encoding: .utf8)) ?? ""
            #expect(!text.contains(runDir) && !text.contains(".build-test"), "/etc/reader.conf.d/\(file)")
        }
    }

    /// "The machine" (a nested network namespace) runs a pcscd with vpcd on the default ports, as
    /// a user's pcscd does once vsmartcard-vpcd is installed; two test stacks then start and stop
    /// one after the other on the same ports, each in its own namespace, as two scripts/test.sh
    /// runs do. Needs root (namespaces, tmpfs on /run/pcscd).
    @Test(.enabled(if: SystemEnvironment.available("pcscd") && getuid() == 0))
    func runThenTestThenRunThenTest() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-isolation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let stack = """
            set -eu
            ip link set lo up
            mount -t tmpfs tmpfs /run/pcscd
            export NFCTAP_TEST_RUN_DIR="$1" NFCTAP_VPCD_PORT=35963
            mkdir -p "$NFCTAP_TEST_RUN_DIR"
            . scripts/lib.sh
            . scripts/services/pcscd.sh
            start_pcscd 2>/dev/null
            ss -Hltn 'sport = :35963' | grep -q . && echo "$2: vpcd listening"
            stop_pcscd
            echo "$2: stopped"
            """
        let machine = """
            set -eu
            ip link set lo up
            mount -t tmpfs tmpfs /run/pcscd
            stack="$1" work="$2"
            (NFCTAP_TEST_RUN_DIR="$work/machine" NFCTAP_VPCD_PORT=35963; export NFCTAP_TEST_RUN_DIR NFCTAP_VPCD_PORT
             mkdir -p "$NFCTAP_TEST_RUN_DIR"; . scripts/lib.sh; . scripts/services/pcscd.sh; start_pcscd 2>/dev/null
             echo "machine: pcscd with vpcd on 35963"
             for run in 1 2; do
                 unshare --net --mount --propagation private bash -c "$stack" stack "$work/test$run" "test $run"
             done
             ss -Hltn 'sport = :35963' | grep -q . && echo "machine: vpcd still listening"
             stop_pcscd)
            """
        mkdirRunPcscd()
        let r = try runProgram("/usr/bin/unshare", ["--net", "--mount", "--propagation", "private", "/bin/bash", "-c", machine,
                                                    "machine", stack, work.path])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout == """
            machine: pcscd with vpcd on 35963
            test 1: vpcd listening
            test 1: stopped
            test 2: vpcd listening
            test 2: stopped
            machine: vpcd still listening

            """, "\(r.stderr)")
    }

    /// /run/pcscd must exist to mount over it (it does wherever pcscd is installed).
    private func mkdirRunPcscd() {
        try? FileManager.default.createDirectory(atPath: "/run/pcscd", withIntermediateDirectories: true)
    }
}
