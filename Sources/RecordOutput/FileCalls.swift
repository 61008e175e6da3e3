#if canImport(Glibc)
import Glibc
#endif

/// The system calls an append makes, replaceable so tests can make a disk fill up or fail
/// (ENOSPC, EIO) at a chosen byte.
public struct FileCalls: Sendable {
    public var write: @Sendable (Int32, UnsafeRawPointer, Int) -> Int
    public var sync: @Sendable (Int32) -> Int32
    public var truncate: @Sendable (Int32, off_t) -> Int32

    public init(write: @escaping @Sendable (Int32, UnsafeRawPointer, Int) -> Int,
                sync: @escaping @Sendable (Int32) -> Int32,
                truncate: @escaping @Sendable (Int32, off_t) -> Int32) {
        self.write = write
        self.sync = sync
        self.truncate = truncate
    }

    /// write(2), fdatasync(2), ftruncate(2).
    public static let system = FileCalls(
        write: { Glibc.write($0, $1, $2) },
        sync: { fdatasync($0) },
        truncate: { ftruncate($0, $1) })
}
