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

// Swift 6: the manager is `@MainActor`, as the view controllers calling it are, and gives the
// session the main queue, so its delegate conformance is `@preconcurrency` (checked at run time).
// Core NFC's completion handlers are `@Sendable`; the session, the tag and the message are not
// Sendable: a handler captures `self` and Sendable values only and hops back to the main actor.
@MainActor
final class NFCNDEFManager: NSObject, @preconcurrency NFCNDEFReaderSessionDelegate {
    enum Action {
        case read
        case write(NFCNDEFMessage)
    }

    private var session: NFCNDEFReaderSession?
    /// The tag the session is connected to.
    private var connectedTag: NFCNDEFTag?
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
        session = NFCNDEFReaderSession(delegate: self, queue: .main, invalidateAfterFirstRead: false)
        session?.alertMessage = alert
        session?.begin()
    }

    private func finish(_ result: Result<NFCNDEFMessage, Error>) {
        let completion = self.completion
        self.completion = nil
        if case let .success(message) = result,
           let data = try? NSKeyedArchiver.archivedData(withRootObject: message, requiringSecureCoding: true) {
            try? data.write(to: archiveURL)
        }
        completion?(result)
    }

    // MARK: - NFCNDEFReaderSessionDelegate

    func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) {}

    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
        // Not called: the session hands out tags (read-write mode).
    }

    func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [NFCNDEFTag]) {
        guard tags.count == 1, let tag = tags.first else {
            session.alertMessage = NFCManagerError.multipleTags.localizedDescription
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(500)) { session.restartPolling() }
            return
        }
        NSLog("NFC: detected \(tag)")
        connectedTag = tag
        session.connect(to: tag) { error in
            Task { @MainActor in self.didConnect(error) }
        }
    }

    private func didConnect(_ error: Error?) {
        guard let session = session, let tag = connectedTag else { return }
        if let error = error {
            fail(session, error)
            return
        }
        tag.queryNDEFStatus { status, capacity, error in
            Task { @MainActor in self.didQueryNDEFStatus(status, capacity: capacity, error: error) }
        }
    }

    private func didQueryNDEFStatus(_ status: NFCNDEFStatus, capacity: Int, error: Error?) {
        guard let session = session, let tag = connectedTag else { return }
        if let error = error {
            fail(session, error)
            return
        }
        switch (status, action) {
        case (.notSupported, _):
            fail(session, NFCManagerError.notSupported)
        case (_, .read):
            tag.readNDEF { message, error in
                // The message is not Sendable: it crosses to the main actor as its NSSecureCoding
                // archive, the form this manager keeps anyway.
                let archive = message.flatMap { try? NSKeyedArchiver.archivedData(withRootObject: $0, requiringSecureCoding: true) }
                Task { @MainActor in self.didRead(archive, error: error) }
            }
        case (.readOnly, .write):
            fail(session, NFCManagerError.readOnly)
        case (.readWrite, .write(let message)):
            guard message.length <= capacity else {
                fail(session, NFCManagerError.tooLarge(needed: message.length, capacity: capacity))
                return
            }
            tag.writeNDEF(message) { error in
                Task { @MainActor in self.didWrite(error) }
            }
        @unknown default:
            fail(session, NFCManagerError.notSupported)
        }
    }

    private func didRead(_ archive: Data?, error: Error?) {
        guard let session = session else { return }
        if let archive = archive,
           let message = try? NSKeyedUnarchiver.unarchivedObject(ofClass: NFCNDEFMessage.self, from: archive) {
            outcome = .success(message)
            session.alertMessage = "Tag read."
            session.invalidate()
        } else {
            fail(session, error ?? NFCManagerError.notSupported)
        }
    }

    private func didWrite(_ error: Error?) {
        guard let session = session, case let .write(message) = action else { return }
        if let error = error {
            fail(session, error)
        } else {
            outcome = .success(message)
            session.alertMessage = "Tag written."
            session.invalidate()
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
