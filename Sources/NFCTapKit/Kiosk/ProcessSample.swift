import Foundation

/// This process's resident memory, open descriptors and threads, from /proc/self.
package struct ProcessSample: Sendable, Equatable {
    /// VmRSS in KiB.
    package var rssKiB: Int
    package var openFiles: Int
    package var threads: Int

    /// Reads /proc/self/status (VmRSS), /proc/self/fd and /proc/self/task now.
    package static func now() -> ProcessSample {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        return ProcessSample(rssKiB: vmRSS(status) ?? -1,
                             openFiles: count("/proc/self/fd"),
                             threads: count("/proc/self/task"))
    }

    /// The `VmRSS:   12345 kB` value.
    package static func vmRSS(_ status: String) -> Int? {
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.count >= 2 { return Int(fields[1]) }
        }
        return nil
    }

    private static func count(_ dir: String) -> Int {
        // The listing's own descriptor is closed again before it returns; it is not counted by callers comparing samples.
        (try? FileManager.default.contentsOfDirectory(atPath: dir).count) ?? -1
    }
}
