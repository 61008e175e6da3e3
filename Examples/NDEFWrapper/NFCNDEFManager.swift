// The NFC layer of an iOS app as wrapper libraries write it: one manager object owning an
// NFCNDEFReaderSession in read-write mode, a closure API with `Result`, errors as a
// `LocalizedError` enum, the last message kept across launches with NSKeyedArchiver
// (NFCNDEFMessage adopts NSSecureCoding), and `Self`-returning payload factories.
// Only the import differs from iOS (`import CoreNFC` there).
import CoreNFCLinux

enum NFCManagerError: LocalizedError {
    case notSupported
    case readOnly
    case tooLarge(needed: Int, capacity: Int)
    case multipleTags

    var errorDescription: String? {
        switch self {
        case .notSupported: return "This tag does not support NDEF."
        case .readOnly: return "This tag is read-only."
        case let .tooLarge(needed, capacity): return "The message needs \(needed) bytes; the tag holds \(capacity)."
        case .multipleTags: return "More than one tag detected."
        }
    }
}

extension NFCNDEFPayload {
    /// A MIME record, built with the designated initializer from a `Self` factory.
    class func mimePayload(type mime: String, data: Data) -> Self? {
        guard !mime.isEmpty, let type = mime.data(using: .ascii) else { return nil }
        return .init(format: .media, type: type, identifier: Data(), payload: data)
    }
}

// Swift 6: @unchecked Sendable, as an iOS app would mark it: its state is used on the session's
// queue and the main queue in turn, never at once.
final class NFCNDEFManager: NSObject, NFCNDEFReaderSessionDelegate, @unchecked Sendable {
    enum Action {
        case read
        case write(NFCNDEFMessage)
    }

    private var session: NFCNDEFReaderSession?
    private var action: Action = .read
    private var completion: ((Result<NFCNDEFMessage, Error>) -> Void)?
    /// The outcome, handed to `completion` once the session has ended.
    private var outcome: Result<NFCNDEFMessage, Error>?
    /// Where the last message read or written is kept (an app would use its caches directory).
    let archiveURL: URL

    init(archiveURL: URL) {
        self.archiveURL = archiveURL
        super.init()
    }

    func read(completion: @escaping (Result<NFCNDEFMessage, Error>) -> Void) {
        start(.read, alert: "Hold your iPhone near the reader to read a tag.", completion: completion)
    }

    func write(url: URL, note: String, completion: @escaping (Result<NFCNDEFMessage, Error>) -> Void) {
        var records: [NFCNDEFPayload] = []
        if let uri = NFCNDEFPayload.wellKnownTypeURIPayload(url: url) { records.append(uri) }
        if let text = NFCNDEFPayload.wellKnownTypeTextPayload(string: note, locale: Locale(identifier: "en")) { records.append(text) }
        if let json = NFCNDEFPayload.mimePayload(type: "application/json", data: Data("{\"v\":1}".utf8)) { records.append(json) }
        start(.write(NFCNDEFMessage(records: records)), alert: "Hold your iPhone near the reader to write.", completion: completion)
    }

    /// The message kept by the last successful read or write, if any.
    func lastMessage() -> NFCNDEFMessage? {
        guard let data = try? Data(contentsOf: archiveURL) else { return nil }
        return try? NSKeyedUnarchiver.unarchivedObject(ofClass: NFCNDEFMessage.self, from: data)
    }

    private func start(_ action: Action, alert: String, completion: @escaping (Result<NFCNDEFMessage, Error>) -> Void) {
        guard NFCNDEFReaderSession.readingAvailable else {
            completion(.failure(NFCReaderError(.readerErrorUnsupportedFeature)))
            return
        }
        self.action = action
        self.completion = completion
        session = NFCNDEFReaderSession(delegate: self, queue: nil, invalidateAfterFirstRead: false)
        session?.alertMessage = alert
        session?.begin()
    }

    private func finish(_ result: Result<NFCNDEFMessage, Error>) {
        // Swift 6: the message and the caller's handler move to the main queue and are used there only.
        nonisolated(unsafe) let completion = self.completion, result = result
        self.completion = nil
        DispatchQueue.main.async {
            if case let .success(message) = result,
               let data = try? NSKeyedArchiver.archivedData(withRootObject: message, requiringSecureCoding: true) {
                try? data.write(to: self.archiveURL)
            }
            completion?(result)
        }
    }

    // MARK: - NFCNDEFReaderSessionDelegate

    func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) {}

    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
        // Not called: the session hands out tags (read-write mode).
    }

    func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [NFCNDEFTag]) {
        guard tags.count == 1, let tag = tags.first else {
            session.alertMessage = NFCManagerError.multipleTags.localizedDescription
            nonisolated(unsafe) let session = session  // Swift 6: the session is not Sendable
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(500)) { session.restartPolling() }
            return
        }
        NSLog("NFC: detected \(tag)")
        session.connect(to: tag) { error in
            if let error = error {
                self.fail(session, error)
                return
            }
            tag.queryNDEFStatus { status, capacity, error in
                if let error = error {
                    self.fail(session, error)
                    return
                }
                switch (status, self.action) {
                case (.notSupported, _):
                    self.fail(session, NFCManagerError.notSupported)
                case (_, .read):
                    tag.readNDEF { message, error in
                        if let message = message {
                            self.outcome = .success(message)
                            session.alertMessage = "Tag read."
                            session.invalidate()
                        } else {
                            self.fail(session, error ?? NFCManagerError.notSupported)
                        }
                    }
                case (.readOnly, .write):
                    self.fail(session, NFCManagerError.readOnly)
                case (.readWrite, .write(let message)):
                    guard message.length <= capacity else {
                        self.fail(session, NFCManagerError.tooLarge(needed: message.length, capacity: capacity))
                        return
                    }
                    tag.writeNDEF(message) { error in
                        if let error = error {
                            self.fail(session, error)
                        } else {
                            self.outcome = .success(message)
                            session.alertMessage = "Tag written."
                            session.invalidate()
                        }
                    }
                @unknown default:
                    self.fail(session, NFCManagerError.notSupported)
                }
            }
        }
    }

    /// The session has ended (our own invalidate() after a result, or the time limit, Cancel…):
    /// now the app hears the outcome.
    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: Error) {
        finish(outcome ?? .failure(error))
        outcome = nil
        self.session = nil
    }

    private func fail(_ session: NFCNDEFReaderSession, _ error: Error) {
        outcome = .failure(error)
        session.invalidate(errorMessage: error.localizedDescription)
    }
}
