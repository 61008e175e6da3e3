// The reader code of an iOS app that reads one tag: a single-read NDEF session whose delegate
// gets the messages (`didDetectNDEFs`). Only the import differs from iOS (`import CoreNFC` there);
// main.swift is the Linux app around it.
//
// Swift 6: the controller is `@MainActor`, like the UI it feeds, and gives the session the main
// queue, so its delegate conformance is `@preconcurrency` (checked at run time) and the messages
// never leave the main actor.
import CoreNFCLinux
import Foundation

@MainActor
final class SingleReadController: NSObject, @preconcurrency NFCNDEFReaderSessionDelegate {
    private(set) var session: NFCNDEFReaderSession?
    /// The messages the session delivered.
    private(set) var detectedMessages: [NFCNDEFMessage] = []
    /// Called once the session has ended (an iOS app would update its UI here).
    var sessionDidEnd: ((Error) -> Void)?

    func beginScanning() {
        session = NFCNDEFReaderSession(delegate: self, queue: .main, invalidateAfterFirstRead: true)
        session?.alertMessage = "Hold a tag near the reader."
        session?.begin()
    }

    // MARK: - NFCNDEFReaderSessionDelegate

    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
        detectedMessages.append(contentsOf: messages)
        for message in messages {
            for record in message.records {
                print(record.consoleDescription)
            }
        }
    }

    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: Error) {
        // 204 is the normal end of a single read; 200 is the app (or the user) ending the session.
        if let readerError = error as? NFCReaderError,
           readerError.code != .readerSessionInvalidationErrorFirstNDEFTagRead,
           readerError.code != .readerSessionInvalidationErrorUserCanceled {
            print("Session invalidated: \(readerError.localizedDescription) (code \(readerError.code.rawValue))")
        }
        sessionDidEnd?(error)
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
