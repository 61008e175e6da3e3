/// Why the PN532 emulator could not start.
public enum PN532EmulatorError: Error, Equatable, CustomStringConvertible {
    /// A pseudo-terminal call failed: the call and errno.
    case pseudoTerminal(String, Int32)
    /// The stable link path could not be created.
    case link(String, Int32)
    /// `start()` was called on a running emulator.
    case alreadyRunning

    public var description: String {
        switch self {
        case let .pseudoTerminal(call, code): return "\(call) failed: errno \(code)"
        case let .link(path, code): return "cannot link \(path): errno \(code)"
        case .alreadyRunning: return "the PN532 emulator is already running"
        }
    }
}
