// The reader code of an iOS app that takes stock of many tags: a multi-read NDEF session
// (`invalidateAfterFirstRead: false`) printing one line per tag read until the session ends.
// Only the import differs from iOS (`import CoreNFC` there); main.swift is the Linux app around it.
//
// Swift 6: the controller is `@MainActor`, like the UI it feeds, and gives the session the main
// queue, so its delegate conformance is `@preconcurrency` (checked at run time) and the count and
// the messages never leave the main actor.
import CoreNFCLinux
import Foundation

@MainActor
final class InventoryController: NSObject, @preconcurrency NFCNDEFReaderSessionDelegate {
    private(set) var session: NFCNDEFReaderSession?
    /// Tags read so far (one message per tag).
    private(set) var tagCount = 0
    /// Called once the session has ended (an iOS app would update its UI here).
    var sessionDidEnd: ((Error) -> Void)?

    func beginScanning() {
        session = NFCNDEFReaderSession(delegate: self, queue: .main, invalidateAfterFirstRead: false)
        session?.alertMessage = "Hold each tag near the reader."
        session?.begin()
    }

    // MARK: - NFCNDEFReaderSessionDelegate

    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
        for message in messages {
            tagCount += 1
            let records = message.records.map { $0.consoleDescription }.joined(separator: " | ")
            print("Tag \(tagCount): \(records)")
        }
        session.alertMessage = "\(tagCount) tag(s) read."
    }

    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: Error) {
        // 200 is how an inventory ends (the user stopped it); anything else is worth showing.
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
