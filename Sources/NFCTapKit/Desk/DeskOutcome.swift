import CoreNFCLinux

/// How a one-tag desk command (`write`, `apdu`) ends: what its work on the tag decided, or else
/// how the session ended.
package struct DeskOutcome {
    private var decided: Result<Void, CLIError>?

    package init() {}

    /// A tag is being (or was) worked on: later batches are ignored.
    package var isDecided: Bool { decided != nil }

    /// Records the work's result. A failure after the session ended by itself (time limit,
    /// signal, reader gone) is that end's doing: the session's end decides then.
    package mutating func record(_ result: Result<Void, CLIError>, sessionActive: Bool) {
        if case .success = result { decided = result } else if sessionActive { decided = result }
    }

    /// Fails the command before any work (a tag of the wrong kind).
    package mutating func fail(_ error: CLIError) {
        decided = .failure(error)
    }

    /// Returns for a success, throws the failure, or throws how the session ended.
    package func end(_ ending: DeskSession.Ending, timeout: Double) throws(CLIError) {
        if let decided { return try decided.get() }
        throw ScanFailure.sessionEnded(ending.code, timeout: timeout)
    }
}
