import Foundation
import NFCTags
import PCSC
import Synchronization

/// What this process learned about each PC/SC reader: its profile (the firmware string is asked
/// once per reader name, and only of ACS readers; a PC/SC name carries the model, so a reader
/// plugged back under the same name is the same kind) and whether nfctap turned the ACR122U's automatic
/// buzzer off (restored at exit).
public final class PCSCReaderRegistry: Sendable {
    public static let shared = PCSCReaderRegistry()

    private struct State {
        var profiles: [String: PCSCReaderProfile] = [:]
        var buzzerOff: Set<String> = []
        var feedbackUnanswered: Set<String> = []
        var exitHookInstalled = false
    }

    private let state = Mutex(State())

    public init() {}

    /// The reader's profile: `PCSCReaderProfile.identify` from the firmware string when
    /// `firmwareQuery(readerName:)` has a question for it (asked through `ask`, which returns nil
    /// when the reader refused), else from the name. Cached per reader name.
    public func profile(readerName: String, ask: ([UInt8]) -> [UInt8]?) -> PCSCReaderProfile {
        if let known = state.withLock({ $0.profiles[readerName] }) { return known }
        var firmware: String?
        var refused = false
        if let query = PCSCReaderProfile.firmwareQuery(readerName: readerName), let reply = ask(query) {
            firmware = PCSCReaderProfile.firmwareString(reply)
            refused = firmware == nil && reply.count == 2
        }
        let profile = PCSCReaderProfile.identify(readerName: readerName, firmware: firmware, refused: refused)
        state.withLock { $0.profiles[readerName] = profile }
        return profile
    }

    /// Remembers that the reader refused its raw path, so later connections do not ask again
    /// (one refused APDU per reader and process, not per tap).
    public func noteRawCommandsRefused(readerName: String) {
        state.withLock { $0.profiles[readerName]?.rawCommandsRefused = true }
    }

    /// Remembers that the reader left feedback commands unanswered beyond
    /// `PCSCReaderFeedback.answerBound`: no more feedback is sent to it, and its automatic buzzer is
    /// not restored at exit (the command would wait behind the unanswered one).
    public func noteFeedbackUnanswered(readerName: String) {
        state.withLock { _ = $0.feedbackUnanswered.insert(readerName) }
    }

    /// The reader left feedback unanswered before (`noteFeedbackUnanswered`).
    public func feedbackUnanswered(readerName: String) -> Bool {
        state.withLock { $0.feedbackUnanswered.contains(readerName) }
    }

    /// Records that the automatic buzzer of `readerName` is to be turned off; true the first time
    /// (the caller then sends `PCSCReaderFeedback.automaticBuzzerOff`). The first call installs an
    /// exit hook that turns it back on (`restoreBuzzers`).
    public func claimBuzzer(readerName: String) -> Bool {
        let (first, installHook) = state.withLock { state -> (Bool, Bool) in
            let first = state.buzzerOff.insert(readerName).inserted
            let install = first && !state.exitHookInstalled
            if install { state.exitHookInstalled = true }
            return (first, install)
        }
        if installHook, self === PCSCReaderRegistry.shared {
            atexit { PCSCReaderRegistry.shared.restoreBuzzers() }
        }
        return first
    }

    /// Readers whose automatic buzzer nfctap turned off and has not restored.
    public var readersWithBuzzerOff: Set<String> { state.withLock { $0.buzzerOff } }

    /// Turns the automatic buzzer back on, best effort: an escape command on a direct connection
    /// (no card needed, but libccid passes escapes only with `ifdDriverOptions` 0x0001), else the
    /// pseudo-APDU on a shared connection when a card is present. The setting is volatile either
    /// way: unplugging the reader restores it.
    public func restoreBuzzers() {
        let names = state.withLock { state -> Set<String> in
            defer { state.buzzerOff.removeAll() }
            return state.buzzerOff.subtracting(state.feedbackUnanswered)
        }
        guard !names.isEmpty, let context = try? Context() else { return }
        for name in names {
            if let card = try? context.connect(reader: name, share: .direct, protocols: []) {
                let done = (try? card.control(code: controlCode(1), PCSCReaderFeedback.automaticBuzzerOn)) != nil
                try? card.disconnect(.leave)
                if done { continue }
            }
            if let card = try? context.connect(reader: name, share: .shared) {
                _ = try? card.transmit(PCSCReaderFeedback.automaticBuzzerOn)
                try? card.disconnect(.leave)
            }
        }
    }
}
