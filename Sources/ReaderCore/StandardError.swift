import SystemPackage

/// Text to stderr with write(2), for the library's own messages and the CLI's (`NFCTapKit.Stderr`).
/// Not `FileHandle.write`: that traps when the write fails (stderr closed, `2> /dev/full`), so a
/// message nobody can read would end the process.
package enum StandardError {
    /// Writes `text` whole, retrying short writes and EINTR; drops it on any other failure.
    package static func write(_ text: String) {
        _ = try? FileDescriptor.standardError.writeAll(text.utf8)
    }
}
