// The reader code of an iOS app, as iOS developers write it after Apple's sample
// "Building an NFC Tag-Reader App": a read-write NDEF session that connects to the tag itself.
// Only the import differs from iOS (`import CoreNFC` there). Nothing here is Linux-specific:
// the app around it (main.swift) configures the session defaults and exits when it ends.
//
// Swift 6: the controller is `@MainActor`, like the UI it feeds. The session delivers its delegate
// calls on the main queue (`queue: .main`), so the conformance is `@preconcurrency` (checked at run
// time). Core NFC's completion handlers are `@Sendable` and the session, the tag and the message
// are not Sendable: a handler captures only `self` and the Sendable values it got (an error, the
// NDEF status, the records as text) and hops back to the main queue, where the session and the
// connected tag are kept.
import CoreNFCLinux
import Foundation

@MainActor
final class NDEFReadWriteController: NSObject, @preconcurrency NFCNDEFReaderSessionDelegate {
    /// What the session does with the one tag it connects to.
    enum Mode {
        case read
        case write(NFCNDEFMessage)
    }

    let mode: Mode
    private(set) var session: NFCNDEFReaderSession?
    /// The tag the session is connected to.
    private var connectedTag: NFCNDEFTag?
    /// The records read from, or written to, the tag, one line each; nil until that succeeded.
    private(set) var completedRecords: [String]?
    /// Called once the session has ended (an iOS app would update its UI here).
    var sessionDidEnd: ((Error) -> Void)?

    init(mode: Mode) {
        self.mode = mode
        super.init()
    }

    func beginScanning() {
        session = NFCNDEFReaderSession(delegate: self, queue: .main, invalidateAfterFirstRead: false)
        switch mode {
        case .read: session?.alertMessage = "Hold a tag near the reader to read it."
        case .write: session?.alertMessage = "Hold a tag near the reader to write it."
        }
        session?.begin()
    }

    // MARK: - NFCNDEFReaderSessionDelegate

    /// Not called: implementing `didDetect tags` makes the session read-write.
    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {}

    func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [NFCNDEFTag]) {
        guard tags.count == 1, let tag = tags.first else {
            // Several tags in the field: ask the user to keep one, then look again.
            session.alertMessage = "More than 1 tag is detected. Please remove all tags and try again."
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(500)) {
                session.restartPolling()
            }
            return
        }
        connectedTag = tag
        session.connect(to: tag) { (error: Error?) in
            DispatchQueue.main.async {
                self.didConnect(error)
            }
        }
    }

    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: Error) {
        // A completed single read and a session the app (or the user) ended are not failures.
        if let readerError = error as? NFCReaderError,
           readerError.code != .readerSessionInvalidationErrorFirstNDEFTagRead,
           readerError.code != .readerSessionInvalidationErrorUserCanceled {
            print("Session invalidated: \(readerError.localizedDescription) (code \(readerError.code.rawValue))")
        }
        sessionDidEnd?(error)
    }

    // MARK: - Tag operations

    private func didConnect(_ error: Error?) {
        guard let session = session, let tag = connectedTag else { return }
        if let error = error {
            session.invalidate(errorMessage: "Unable to connect to tag: \(error.localizedDescription)")
            return
        }
        tag.queryNDEFStatus { (status: NFCNDEFStatus, capacity: Int, error: Error?) in
            DispatchQueue.main.async {
                self.didQueryNDEFStatus(status, capacity: capacity, error: error)
            }
        }
    }

    private func didQueryNDEFStatus(_ status: NFCNDEFStatus, capacity: Int, error: Error?) {
        guard let session = session, let tag = connectedTag else { return }
        if let error = error {
            session.invalidate(errorMessage: "Unable to query the NDEF status of the tag: \(error.localizedDescription)")
            return
        }
        if status == .notSupported {
            session.invalidate(errorMessage: "Tag is not NDEF compliant.")
            return
        }
        switch mode {
        case .read:
            read(tag)
        case let .write(message):
            if status == .readOnly {
                session.invalidate(errorMessage: "Tag is read-only.")
            } else if message.length > capacity {
                session.invalidate(errorMessage: "The message needs \(message.length) bytes; the tag holds \(capacity).")
            } else {
                write(message, to: tag)
            }
        }
    }

    private func read(_ tag: NFCNDEFTag) {
        tag.readNDEF { (message: NFCNDEFMessage?, error: Error?) in
            // The message stays here; its records travel to the main queue as text.
            let records = error == nil ? message?.records.map { $0.consoleDescription } : nil
            DispatchQueue.main.async {
                self.didRead(records, error: error)
            }
        }
    }

    private func didRead(_ records: [String]?, error: Error?) {
        guard let session = session else { return }
        guard let records = records else {
            session.invalidate(errorMessage: "Read failed: \(error?.localizedDescription ?? "no message")")
            return
        }
        completedRecords = records
        for record in records {
            print(record)
        }
        session.alertMessage = "Read \(records.count) record(s)."
        session.invalidate()
    }

    private func write(_ message: NFCNDEFMessage, to tag: NFCNDEFTag) {
        tag.writeNDEF(message) { (error: Error?) in
            DispatchQueue.main.async {
                self.didWrite(error)
            }
        }
    }

    private func didWrite(_ error: Error?) {
        guard let session = session, case let .write(message) = mode else { return }
        if let error = error {
            session.invalidate(errorMessage: "Write failed: \(error.localizedDescription)")
            return
        }
        completedRecords = message.records.map { $0.consoleDescription }
        print("Wrote \(message.records.count) record(s), \(message.length) bytes.")
        session.alertMessage = "Write NDEF message successful."
        session.invalidate()
    }
}

extension NFCNDEFPayload {
    /// One line for the record: its URI, its text, or its type and size.
    var consoleDescription: String {
        if let url = wellKnownTypeURIPayload() {
            return "URI: " + Self.printable(url.absoluteString)
        }
        let (text, locale) = wellKnownTypeTextPayload()
        if let text = text {
            return "Text (\(Self.printable(locale?.identifier ?? ""))): " + Self.printable(text)
        }
        let typeName = String(decoding: type, as: UTF8.self)
        return "Record: TNF \(typeNameFormat.rawValue), type \(Self.printable(typeName)), \(payload.count) bytes"
    }

    /// Tag text made safe for a console: control and format characters become `\u{…}` escapes.
    static func printable(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
