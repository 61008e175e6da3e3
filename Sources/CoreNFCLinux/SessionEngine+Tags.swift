import Foundation
import NFCReaders
import NFCTags

/// What reading one tag in a read-only session gave.
enum TagReadOutcome {
    case message(NFCNDEFMessage)
    /// Nothing to deliver: not NDEF, empty, or not decodable. The session goes on.
    case skipped(NFCReaderError)
    /// The read failed (tag gone, reader busy).
    case failed(NFCReaderError)
}

extension SessionEngine {
    // MARK: Read-only sessions

    /// Connects, reads and decodes the NDEF message, reports it, gives feedback, disconnects
    /// (engine queue). Every read ends in one `.tagReport` event and one `tagReportHandler` call.
    func readMessage(from presence: TagPresence) -> TagReadOutcome {
        var report = NFCTagReport(tag: presence.detected)
        guard presence.detected.technology != .other else {
            let error = NFCReaderError(.readerErrorUnsupportedFeature, message: "not an NFC Forum Type 2 or Type 4 tag")
            report.error = error
            conclude(report, outcome: .skipped(error), link: nil)
            return .skipped(error)
        }
        let link: any TagConnection
        do {
            link = try connectRetryingWhileBusy(presence)
        } catch {
            let failure = NFCReaderError.from(error, during: .read)
            report.error = failure
            conclude(report, outcome: .failed(failure), link: nil)
            return .failed(failure)
        }
        defer { link.disconnect() }
        let outcome = read(link, into: &report)
        conclude(report, outcome: outcome, link: link)
        return outcome
    }

    /// A reader another client holds only briefly (pcscd releasing a client that just died, a
    /// tool's quick look) is tried again a few times, 100 ms apart, before it counts as busy (203).
    private func connectRetryingWhileBusy(_ presence: TagPresence) throws -> any TagConnection {
        var attempt = 0
        while true {
            do {
                return try presence.backend.connect(to: presence.detected, exclusive: configuration.exclusiveAccess)
            } catch ReaderError.readerBusy(let name) {
                attempt += 1
                guard attempt < 4, presence.isPresent else { throw ReaderError.readerBusy(name) }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }

    private func read(_ link: any TagConnection, into report: inout NFCTagReport) -> TagReadOutcome {
        let ops: any NDEFTagOperations
        let bytes: [UInt8]
        do {
            ops = try environment.makeNDEFOperations(link)
            bytes = try ops.readNDEF()
        } catch let error as TagError {
            switch error {
            case .notNDEFFormatted, .unsupported, .invalidTagData:
                let skipped = NFCReaderError(error, during: .read)
                report.error = skipped
                return .skipped(skipped)
            default:
                let failure = NFCReaderError(error, during: .read)
                report.error = failure
                return .failed(failure)
            }
        } catch {
            let failure = NFCReaderError.from(error, during: .read)
            report.error = failure
            return .failed(failure)
        }
        report.ndefBytes = bytes
        if configuration.collectTagDetails { report.details = NDEFTagDetails(describing: ops) }
        guard !bytes.isEmpty else {
            let empty = NFCReaderError(.ndefReaderSessionErrorZeroLengthMessage, message: "the tag holds an empty NDEF message")
            report.error = empty
            return .skipped(empty)
        }
        do {
            let message = try environment.decodeMessage(bytes)
            report.message = message
            return .message(message)
        } catch {
            let malformed = NFCReaderError(.readerTransceiveErrorTagResponseError, message: "malformed NDEF message: \(error)")
            report.error = malformed
            return .skipped(malformed)
        }
    }

    /// Hands the report to the handler, confirms the tap on the reader, then emits the event
    /// (so an observer of `.tagReport` sees a tap that is already confirmed). Without a handler: green for a
    /// message, red for a failed or malformed read, nothing for tags without NDEF.
    private func conclude(_ report: NFCTagReport, outcome: TagReadOutcome, link: (any TagConnection)?) {
        let verdict: Bool?
        if let handler = configuration.tagReportHandler {
            verdict = handler(report) && report.completed
        } else {
            switch outcome {
            case .message: verdict = true
            case .failed: verdict = false
            case let .skipped(error): verdict = error.code == .readerTransceiveErrorTagResponseError ? false : nil
            }
        }
        if configuration.readerFeedback, let link, let verdict { link.signal(verdict ? .success : .failure) }
        emit(.tagReport(report))
    }

    // MARK: Read-write and tag sessions

    /// True while `tag` can be used: session active, tag present, object not made stale.
    func isAvailable(_ tag: SessionTag) -> Bool {
        state.withLock { s in
            s.phase == .active && tag.presence.isPresent && tag.generation == s.generation
        }
    }

    /// `connect(to:)`: opens a connection to `tag`, closing any other. A busy reader (203) also
    /// ends the session, after the completion handler ran.
    func connect(_ tag: SessionTag, completion: @escaping ((any Error)?) -> Void) {
        queue.async {
            let error = self.openConnection(to: tag)
            self.sessionQueue.async { completion(error) }
            if let error, error.code == .readerSessionInvalidationErrorSystemIsBusy {
                self.finish(error)
            }
        }
    }

    private func openConnection(to tag: SessionTag) -> NFCReaderError? {
        if let error = usability(of: tag, needsConnection: false) { return error }
        if connection?.tag === tag { return nil }
        dropConnection()
        let link: any TagConnection
        do {
            link = try tag.presence.backend.connect(to: tag.presence.detected, exclusive: configuration.exclusiveAccess)
        } catch {
            return NFCReaderError.from(error, during: .command)
        }
        let factory = environment.makeNDEFOperations
        connection = ActiveConnection(tag: tag, link: link, makeOperations: factory)
        state.withLock { $0.connectedTag = tag }
        if let iso = tag as? ISO7816SessionTag, let apdu = link.apdu {
            iso.selectInitialApplication(from: configuration.iso7816SelectIdentifiers, over: apdu)
        }
        return nil
    }

    /// Closes the current connection (engine queue).
    func dropConnection() {
        guard let current = connection else { return }
        connection = nil
        state.withLock { s in
            if s.connectedTag === current.tag { s.connectedTag = nil }
        }
        current.link.disconnect()
    }

    /// Why `tag` cannot be used now, or nil.
    private func usability(of tag: SessionTag, needsConnection: Bool) -> NFCReaderError? {
        guard tag.engine === self else {
            return NFCReaderError(.readerErrorInvalidParameter, message: "the tag belongs to another session")
        }
        let (phase, generation, present) = state.withLock { ($0.phase, $0.generation, tag.presence.isPresent) }
        guard phase == .active else { return NFCReaderError(.readerTransceiveErrorSessionInvalidated) }
        guard present else { return NFCReaderError(.readerTransceiveErrorTagConnectionLost, message: "the tag left the reader") }
        guard tag.generation == generation else {
            return NFCReaderError(.readerTransceiveErrorTagNotConnected, message: "the tag object is stale: polling was restarted")
        }
        if needsConnection, connection?.tag !== tag {
            return NFCReaderError(.readerTransceiveErrorTagNotConnected, message: "connect(to:) the tag first")
        }
        return nil
    }

    /// Runs `body` on the engine queue against `tag`'s open connection; the result goes to
    /// `completion` on the session queue. Errors become `NFCReaderError` for `kind`.
    func perform<T>(_ tag: SessionTag, kind: TagOperationKind,
                    _ body: @escaping (ActiveConnection) throws -> T,
                    completion: @escaping (Result<T, NFCReaderError>) -> Void) {
        queue.async {
            let result: Result<T, NFCReaderError>
            if let error = self.usability(of: tag, needsConnection: true) {
                result = .failure(error)
            } else if let connection = self.connection {
                do {
                    result = .success(try body(connection))
                } catch {
                    result = .failure(NFCReaderError.from(error, during: kind))
                }
            } else {
                result = .failure(NFCReaderError(.readerTransceiveErrorTagNotConnected))
            }
            self.sessionQueue.async { completion(result) }
        }
    }
}
