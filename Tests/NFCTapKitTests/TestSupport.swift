import Foundation
import RecordOutput

/// A temporary directory removed when the value is dropped.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-kit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

enum TestPaths {
    /// The package root, found from this file's path.
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()
}

extension FileCalls {
    /// Every write fails as on a full disk (after storing `partial` bytes of the record).
    static func diskFull(afterWriting partial: Int = 0) -> FileCalls {
        FileCalls(write: { fd, buffer, count in
                      if partial > 0 { _ = FileCalls.system.write(fd, buffer, min(partial, count)) }
                      errno = ENOSPC
                      return -1
                  },
                  sync: FileCalls.system.sync, truncate: FileCalls.system.truncate)
    }
}
