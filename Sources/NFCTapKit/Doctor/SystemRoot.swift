import Foundation

/// Where doctor looks for /proc, /sys, /dev, /etc and /usr. `NFCTAP_SYSROOT` prefixes them all
/// (for checking a chroot or an image, and for tests that build a fake tree).
package struct SystemRoot {
    package var prefix: String

    package static var current: SystemRoot {
        SystemRoot(prefix: ProcessInfo.processInfo.environment["NFCTAP_SYSROOT"] ?? "")
    }

    package func path(_ absolute: String) -> String { prefix + absolute }

    package func exists(_ absolute: String) -> Bool { FileManager.default.fileExists(atPath: path(absolute)) }

    package func read(_ absolute: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path(absolute)) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    package func list(_ absolute: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path(absolute)))?.sorted() ?? []
    }

    /// True when the calling user may read and write the file (access(2), so root always may).
    package func isReadWritable(_ absolute: String) -> Bool {
        access(path(absolute), R_OK | W_OK) == 0
    }
}
