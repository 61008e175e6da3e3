import Foundation

/// The judgement on the samples. Warm-up = the first 10% of samples (at least one after the
/// start); after it:
/// - RSS flat: the largest of the last half ≤ the largest of the first quarter + max(512 KiB, 2%)
///   (at 10,000 taps a leak of about 100 bytes a tap fails);
/// - descriptors: at the end no more than right after warm-up;
/// - threads flat: the largest of the last half ≤ the largest of the first half + 2 (Dispatch's
///   worker pool grows under load and keeps its threads a while; a leak keeps climbing).
package struct SoakVerdict {
    package var problems: [String] = []
    package var summary = ""

    package init(samples: [ProcessSample]) {
        guard samples.count >= 8 else {
            problems = ["only \(samples.count) samples: use more taps or a smaller --sample-every"]
            return
        }
        let warm = max(1, samples.count / 10)
        let steady = Array(samples[warm...])
        let firstQuarter = steady.prefix(max(1, steady.count / 4))
        let firstHalf = steady.prefix(max(1, steady.count / 2))
        let lastHalf = steady.suffix(max(1, steady.count / 2))
        let earlyRSS = firstQuarter.map(\.rssKiB).max()!
        let lateRSS = lastHalf.map(\.rssKiB).max()!
        let slack = max(512, earlyRSS / 50)
        if lateRSS > earlyRSS + slack {
            problems.append("RSS grew: \(lateRSS) KiB in the last half vs \(earlyRSS) KiB early (+\(slack) KiB allowed)")
        }
        let baselineFDs = samples[warm].openFiles
        let finalFDs = samples.last!.openFiles
        if finalFDs > baselineFDs {
            problems.append("open descriptors grew: \(finalFDs) at the end vs \(baselineFDs) after warm-up")
        }
        let earlyThreads = firstHalf.map(\.threads).max()!
        let lateThreads = lastHalf.map(\.threads).max()!
        if lateThreads > earlyThreads + 2 {
            problems.append("threads grew: \(lateThreads) in the last half vs \(earlyThreads) in the first half")
        }
        summary = "soak: rss early max \(earlyRSS) KiB, late max \(lateRSS) KiB (slack \(slack)); fds \(baselineFDs) → \(finalFDs); threads first-half max \(earlyThreads), last-half max \(lateThreads)"
        deltas = "RSS \(Self.signed(lateRSS - earlyRSS)) KiB (limit +\(slack)), fds \(Self.signed(finalFDs - baselineFDs)) (limit +0), "
            + "threads \(Self.signed(lateThreads - earlyThreads)) (limit +2)"
    }

    /// The changes judged, one phrase: `RSS +108 KiB (limit +512), fds +0 (limit +0), threads +1 (limit +2)`.
    package var deltas = "no resource deltas (too few samples)"

    package static func signed(_ n: Int) -> String { n < 0 ? "\(n)" : "+\(n)" }
}
