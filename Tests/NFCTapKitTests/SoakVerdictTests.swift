import Testing
@testable import NFCTapKit

/// The soak's judgement (scripts/soak.sh): flat passes, growth of RSS, descriptors or threads fails.
@Suite("Soak verdict")
struct SoakVerdictTests {
    static func samples(count: Int = 40, rss: (Int) -> Int = { _ in 26_000 }, fds: (Int) -> Int = { _ in 10 },
                        threads: (Int) -> Int = { _ in 8 }) -> [ProcessSample] {
        (0..<count).map { ProcessSample(rssKiB: rss($0), openFiles: fds($0), threads: threads($0)) }
    }

    @Test("flat after warm-up passes, even with a large warm-up step")
    func flat() {
        let v = SoakVerdict(samples: Self.samples(rss: { $0 < 3 ? 20_000 : 26_000 + $0 % 3 * 100 }, threads: { $0 < 2 ? 5 : 9 }))
        #expect(v.problems.isEmpty)
    }

    @Test("a leak of 128 bytes a tap (32 KiB per sample of 250 taps) fails; 32 bytes a tap passes")
    func rssLeak() {
        #expect(SoakVerdict(samples: Self.samples(rss: { 26_000 + $0 * 32 })).problems
                == ["RSS grew: 27248 KiB in the last half vs 26384 KiB early (+527 KiB allowed)"])
        #expect(SoakVerdict(samples: Self.samples(rss: { 26_000 + $0 * 8 })).problems.isEmpty)
    }

    @Test("one descriptor left open per few hundred taps fails; so do climbing threads")
    func fdsAndThreads() {
        #expect(SoakVerdict(samples: Self.samples(fds: { 10 + $0 / 10 })).problems
                == ["open descriptors grew: 13 at the end vs 10 after warm-up"])
        #expect(SoakVerdict(samples: Self.samples(threads: { 8 + $0 / 5 })).problems
                == ["threads grew: 15 in the last half vs 12 in the first half"])
    }

    @Test("the verdict states the deltas it judged, with their limits")
    func deltas() {
        let v = SoakVerdict(samples: Self.samples(rss: { $0 < 20 ? 26_000 : 26_100 }, fds: { $0 < 30 ? 10 : 9 },
                                                   threads: { $0 < 22 ? 8 : 9 }))
        #expect(v.problems.isEmpty)
        #expect(v.deltas == "RSS +100 KiB (limit +520), fds -1 (limit +0), threads +1 (limit +2)")
    }

    @Test("too few samples is a failure, not a pass")
    func tooFew() {
        #expect(SoakVerdict(samples: Self.samples(count: 5)).problems
                == ["only 5 samples: use more taps or a smaller --sample-every"])
    }

    @Test("VmRSS parsing")
    func vmRSS() {
        #expect(ProcessSample.vmRSS("Name:\tnfctap\nVmRSS:\t   26104 kB\nThreads:\t7\n") == 26104)
        #expect(ProcessSample.vmRSS("Name:\tnfctap\n") == nil)
    }
}
