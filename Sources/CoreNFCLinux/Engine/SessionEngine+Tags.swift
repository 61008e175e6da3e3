import Foundation
import NDEF
import NFCTags
import ReaderCore

/// What reading one tag in a read-only session gave.
enum TagReadOutcome: Sendable {
    /// Decoded once; Core NFC's `NFCNDEFMessage` is made from it where a delegate or event needs one.
    case message(NDEFMessage)
    /// Nothing to deliver: not NDEF, empty, or not decodable. The session goes on.
    case skipped(NFCReaderError)
    /// The read failed (tag gone, reader busy).
    case failed(NFCReaderError)
}

extension SessionEngine {
    // MARK: Read-only sessions

    typealias ReadResults = [(presence: TagPresence, outcome: TagReadOutcome)]

    /// Reads every tag of `batch`. Multi-read: each reader's tags in order on that reader's lane,
    /// readers in parallel, so a stuck card delays no other reader. Single-read
    /// (`stopAtFirstMessage`): one tag after another until the first message, as iOS does, each
    /// read bounded by the operation deadline. `readerDone` gets each reader's results as that
    /// reader is done, `batchDone` all of them once every reader is (engine queue, session active).
    func readBatch(_ batch: [TagPresence], stopAtFirstMessage: Bool,
                   readerDone: @escaping (ReadResults) -> Void,
                   batchDone: @escaping (ReadResults) -> Void) {
        var groups: [[TagPresence]] = []
        if stopAtFirstMessage {
            groups = [batch]
        } else {
            var names: [String] = []
            for presence in batch {
                if let i = names.firstIndex(of: presence.detected.reader.name) {
                    groups[i].append(presence)
                } else {
                    names.append(presence.detected.reader.name)
                    groups.append([presence])
                }
            }
        }
        var remaining = groups.count
        var all: ReadResults = []
        guard remaining > 0 else { return batchDone([]) }
        for group in groups {
            readInOrder(group[...], results: [], stopAtFirstMessage: stopAtFirstMessage) { [self] results in
                guard phase == .active else { return }
                if !results.isEmpty { readerDone(results) }
                all += results
                remaining -= 1
                // Called also when no reader had anything to report (tags gone before their read):
                // the caller's held events are released there.
                guard remaining == 0, phase == .active else { return }
                // In the batch's order, whichever reader finished first.
                let order = { (p: TagPresence) in batch.firstIndex { $0 === p } ?? 0 }
                batchDone(all.sorted { order($0.presence) < order($1.presence) })
            }
        }
    }

    /// Reads `tags` one after another; `deliver` gets the results (also none) unless the session ended.
    private func readInOrder(_ tags: ArraySlice<TagPresence>, results: ReadResults, stopAtFirstMessage: Bool,
                             deliver: @escaping (ReadResults) -> Void) {
        guard phase == .active else { return }
        guard let index = tags.firstIndex(where: { $0.isPresent }) else {
            deliver(results)
            return
        }
        let presence = tags[index]
        readMessage(from: presence) { [self] outcome in
            guard phase == .active else { return }
            let results = results + [(presence, outcome)]
            if stopAtFirstMessage, case .message = outcome {
                deliver(results)
            } else {
                readInOrder(tags[(index + 1)...], results: results, stopAtFirstMessage: stopAtFirstMessage, deliver: deliver)
            }
        }
    }

    /// Connects, reads and decodes the NDEF message, reports it, gives feedback, disconnects, all
    /// on the reader's lane; `completion` gets the outcome on the engine queue. Every read ends in
    /// one `.tagReport` event and one `tagReportHandler` call, also when the tag stops answering
    /// (tag connection lost, 100, after `operationTimeout`).
    func readMessage(from presence: TagPresence, completion: @escaping (TagReadOutcome) -> Void) {
        let detected = presence.detected
        runOnLane(presence, work: { [self] operation in
            readOnLane(presence, operation: operation)
        }, expired: { [self] error in
            let report = NFCTagReport(tag: detected, error: error)
            // After the session ended nobody waits for the report.
            if phase == .active { conclude(report, outcome: .failed(error), link: nil) }
            return .failed(error)
        }, completion: completion)
    }

    /// The lane's part of `readMessage`; nil when the operation was settled elsewhere meanwhile.
    private func readOnLane(_ presence: TagPresence, operation: TagOperation) -> TagReadOutcome? {
        guard presence.detected.technology != .other else {
            let error = NFCReaderError(.readerErrorUnsupportedFeature, message: "not an NFC Forum Type 2 or Type 4 tag")
            guard operation.claim() else { return nil }
            conclude(NFCTagReport(tag: presence.detected, error: error), outcome: .skipped(error), link: nil)
            return .skipped(error)
        }
        let link: any TagConnection
        do throws(ReaderError) {
            link = try connectRetryingWhileBusy(presence, operation: operation)
        } catch {
            let failure = NFCReaderError(error)  // docs/architecture.md "Errors"
            guard operation.claim() else { return nil }
            conclude(NFCTagReport(tag: presence.detected, error: failure), outcome: .failed(failure), link: nil)
            return .failed(failure)
        }
        defer { link.disconnect() }
        operation.attach(link)
        let (outcome, report) = read(link, tag: presence.detected)
        guard operation.claim() else { return nil }
        conclude(report, outcome: outcome, link: link)
        return outcome
    }

    /// A reader another client holds only briefly (pcscd releasing a client that just died, a
    /// tool's quick look) is tried again a few times, 100 ms apart, before it counts as busy (203).
    private func connectRetryingWhileBusy(_ presence: TagPresence, operation: TagOperation) throws(ReaderError) -> any TagConnection {
        var attempt = 0
        while true {
            do {
                return try presence.backend.connect(to: presence.detected, exclusive: configuration.exclusiveAccess)
            } catch ReaderError.readerBusy(let name) {
                attempt += 1
                guard attempt < 4, presence.isPresent, !operation.isSettled else { throw ReaderError.readerBusy(name) }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }

    /// Reads the tag's NDEF bytes and decodes them, once: the outcome and the report share the decoding.
    private func read(_ link: any TagConnection, tag: DetectedTag) -> (TagReadOutcome, NFCTagReport) {
        let ops: any NDEFTagOperations
        let bytes: [UInt8]
        var made: (any NDEFTagOperations)?
        do {
            ops = try environment.makeNDEFOperations(link)
            made = ops
            bytes = try ops.readNDEF()
        } catch let error as TagError {
            switch error {
            case .notNDEFFormatted, .unsupported, .invalidTagData:
                // An ISO 15693 label or a MIFARE Classic badge without NDEF is still named: chip, no capacity.
                let skipped = NFCReaderError(error, during: .read)
                var report = NFCTagReport(tag: tag, error: skipped)
                if configuration.collectTagDetails, let named = made, named is Type5Tag || named is MifareClassicTag {
                    report = NFCTagReport(tag: tag, details: NDEFTagDetails(describing: named), ndefBytes: nil,
                                          decoded: nil, decodingError: nil, error: skipped)
                }
                if case .invalidTagData = error { report.refusedData = true }
                return (.skipped(skipped), report)
            default:
                let failure = NFCReaderError(error, during: .read)
                var report = NFCTagReport(tag: tag, error: failure)
                switch error {
                case .malformedReply, .authenticationFailed: report.refusedData = true  // the same on every read
                default: break
                }
                return (.failed(failure), report)
            }
        } catch {
            let failure = NFCReaderError.from(error, during: .read)
            return (.failed(failure), NFCTagReport(tag: tag, error: failure))
        }
        let details = configuration.collectTagDetails ? NDEFTagDetails(describing: ops) : nil
        guard !bytes.isEmpty else {
            let empty = NFCReaderError(.ndefReaderSessionErrorZeroLengthMessage, message: "the tag holds an empty NDEF message")
            return (.skipped(empty), NFCTagReport(tag: tag, details: details, ndefBytes: bytes, decoded: nil,
                                                  decodingError: nil, error: empty))
        }
        do {
            let message = try environment.decodeMessage(bytes)
            return (.message(message), NFCTagReport(tag: tag, details: details, ndefBytes: bytes, decoded: message,
                                                    decodingError: nil, error: nil))
        } catch {
            let malformed = NFCReaderError(.readerTransceiveErrorTagResponseError, message: "malformed NDEF message: \(error)")
            var report = NFCTagReport(tag: tag, details: details, ndefBytes: bytes, decoded: nil, decodingError: error, error: malformed)
            report.refusedData = true
            return (.skipped(malformed), report)
        }
    }

    /// Hands the report to the handler, confirms the tap on the reader, then emits the event
    /// (so an observer of `.tagReport` sees a tap that is already confirmed). Without a handler: green for a
    /// message, red for a failed or malformed read, nothing for tags without NDEF.
    /// Runs on the reader's lane (or the engine queue for an expired read); handler calls never overlap.
    private func conclude(_ report: NFCTagReport, outcome: TagReadOutcome, link: (any TagConnection)?) {
        let verdict: Bool?
        if let handler = configuration.tagReportHandler {
            verdict = reportLock.withLock { _ in handler(report) } && report.completed
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

    /// `connect(to:)`: opens a connection to `tag` on its reader's lane, closing any other. A busy
    /// reader (203) also ends the session, after the completion handler ran.
    func connect(_ tag: SessionTag, completion: @escaping @Sendable ((any Error)?) -> Void) {
        queue.async {
            self.openConnection(to: tag) { error in
                self.sessionQueue.async { completion(error) }
                if let error, error.code == .readerSessionInvalidationErrorSystemIsBusy {
                    self.finish(error)
                }
            }
        }
    }

    /// Engine queue; `completion` too.
    private func openConnection(to tag: SessionTag, completion: @escaping (NFCReaderError?) -> Void) {
        if let error = usability(of: tag, needsConnection: false) { return completion(error) }
        if connection?.tag === tag { return completion(nil) }
        dropConnection()
        connectRequests += 1
        let ticket = connectRequests
        let exclusive = configuration.exclusiveAccess
        let identifiers = configuration.iso7816SelectIdentifiers
        let presence = tag.presence
        runOnLane(presence, work: { operation -> Result<QueueBound<any TagConnection>, NFCReaderError>? in
            let link: any TagConnection
            do throws(ReaderError) {
                link = try presence.backend.connect(to: presence.detected, exclusive: exclusive)
            } catch {
                return operation.claim() ? .failure(NFCReaderError(error)) : nil
            }
            operation.attach(link)
            if let iso = tag as? ISO7816SessionTag, let apdu = link.apdu {
                iso.selectInitialApplication(from: identifiers, over: apdu)
            }
            if let feliCa = tag as? FeliCaSessionTag, let channel = link.feliCa, !feliCa.allowedSystemCodes.isEmpty {
                feliCa.selectSystem(over: channel)
            }
            guard operation.claim() else {
                link.disconnect()
                return nil
            }
            return .success(QueueBound(link, on: operation.lane))
        }, expired: { error in
            .failure(error)
        }, completion: { [self] result in
            switch result {
            case let .failure(error):
                completion(error)
            case let .success(link):
                // The tag may have left while this one was opening.
                if let error = usability(of: tag, needsConnection: false) {
                    closeOnLane(link)
                    return completion(error)
                }
                // A later connect(to:) replaced this one while both were opening (on two readers'
                // lanes): it connected, and was dropped at once, as if the calls had run in turn.
                guard ticket == connectRequests else {
                    closeOnLane(link)
                    return completion(nil)
                }
                dropConnection()
                connection = ActiveConnection(tag: tag, link: link, makeOperations: environment.makeNDEFOperations)
                state.withLock { $0.connectedTag = tag }
                completion(nil)
            }
        })
    }

    /// Closes the current connection on its lane (engine queue).
    func dropConnection() {
        guard let current = connection else { return }
        connection = nil
        state.withLock { s in
            if s.connectedTag === current.tag { s.connectedTag = nil }
        }
        closeOnLane(current.bound)
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

    /// Runs `body` on the reader's lane against `tag`'s open connection, under the operation
    /// deadline; the result goes to `completion` on the session queue. Errors become
    /// `NFCReaderError` for `kind`. A tag that does not answer in time is reported lost (100) and
    /// its connection dropped: `connect(to:)` it again.
    func perform<T: Sendable>(_ tag: SessionTag, kind: TagOperationKind,
                              _ body: @escaping @Sendable (ActiveConnection) throws -> T,
                              completion: @escaping @Sendable (Result<T, NFCReaderError>) -> Void) {
        queue.async {
            let deliver: (Result<T, NFCReaderError>) -> Void = { result in
                self.sessionQueue.async { completion(result) }
            }
            if let error = self.usability(of: tag, needsConnection: true) {
                return deliver(.failure(error))
            }
            guard let connection = self.connection else {
                return deliver(.failure(NFCReaderError(.readerTransceiveErrorTagNotConnected)))
            }
            self.runOnLane(tag.presence, work: { operation -> Result<T, NFCReaderError>? in
                operation.attach(connection.link)
                let result: Result<T, NFCReaderError>
                do {
                    result = .success(try body(connection))
                } catch {
                    result = .failure(NFCReaderError.from(error, during: kind))
                }
                return operation.claim() ? result : nil
            }, expired: { error in
                if self.connection === connection { self.dropConnection() }
                return .failure(error)
            }, completion: { result in
                deliver(result)
            })
        }
    }
}
