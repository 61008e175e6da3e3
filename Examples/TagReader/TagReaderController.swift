// The reader code of an iOS app that talks to tags directly: an ISO 14443 tag reader session
// switching over `NFCTag`. ISO 7816 cards get a SELECT of the NFC Forum NDEF application and
// the status word is printed; MIFARE Ultralight / NTAG tags get a READ of page 4 and the 16
// bytes are printed. Only the import differs from iOS (`import CoreNFC` there, plus the
// com.apple.developer.nfc.readersession entitlements); main.swift is the Linux app around it.
//
// Swift 6: the controller is `@MainActor`, like the UI it feeds. The session delivers its delegate
// calls on the main queue (`queue: .main`), so the conformance is `@preconcurrency` (checked at run
// time); Core NFC's completion handlers are `@Sendable` and the session and tag are not Sendable, so
// a handler captures only `self` and the Sendable values it got, and hops back to the main actor.
import CoreNFCLinux
import Foundation

@MainActor
final class TagReaderController: NSObject, @preconcurrency NFCTagReaderSessionDelegate {
    private(set) var session: NFCTagReaderSession?
    /// The tag the session is connected to.
    private var connectedTag: NFCTag?
    /// True once a command got its answer.
    private(set) var completed = false
    /// Called once the session has ended (an iOS app would update its UI here).
    var sessionDidEnd: ((Error) -> Void)?

    /// SELECT by name (00 A4 04 00), Lc 07, the NDEF application D2 76 00 00 85 01 01, Le 00.
    static var selectNDEFApplication: NFCISO7816APDU { NFCISO7816APDU(
        instructionClass: 0x00, instructionCode: 0xA4, p1Parameter: 0x04, p2Parameter: 0x00,
        data: Data([0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]), expectedResponseLength: 256) }

    func beginScanning() {
        session = NFCTagReaderSession(pollingOption: .iso14443, delegate: self, queue: .main)
        session?.alertMessage = "Hold a card or tag near the reader."
        session?.begin()
    }

    // MARK: - NFCTagReaderSessionDelegate

    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {}

    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
        if tags.count > 1 {
            session.alertMessage = "More than 1 tag is detected. Please remove all tags and try again."
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(500)) {
                session.restartPolling()
            }
            return
        }
        guard let tag = tags.first else { return }
        connectedTag = tag
        session.connect(to: tag) { (error: Error?) in
            DispatchQueue.main.async {
                self.didConnect(error)
            }
        }
    }

    private func didConnect(_ error: Error?) {
        guard let session = session, let tag = connectedTag else { return }
        if let error = error {
            session.invalidate(errorMessage: "Unable to connect to tag: \(error.localizedDescription)")
            return
        }
        switch tag {
        case let .iso7816(card):
            selectNDEFApplication(on: card)
        case let .miFare(mifare):
            readPage4(of: mifare)
        default:
            session.invalidate(errorMessage: "This tag is not supported.")
        }
    }

    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: Error) {
        if let readerError = error as? NFCReaderError,
           readerError.code != .readerSessionInvalidationErrorFirstNDEFTagRead,
           readerError.code != .readerSessionInvalidationErrorUserCanceled {
            print("Session invalidated: \(readerError.localizedDescription) (code \(readerError.code.rawValue))")
        }
        sessionDidEnd?(error)
    }

    // MARK: - Commands

    private func selectNDEFApplication(on card: NFCISO7816Tag) {
        print("ISO 7816 card \(Self.hex(card.identifier))")
        card.sendCommand(apdu: Self.selectNDEFApplication) { (response: Data, sw1: UInt8, sw2: UInt8, error: Error?) in
            DispatchQueue.main.async {
                guard let session = self.session else { return }
                if let error = error {
                    session.invalidate(errorMessage: "SELECT failed: \(error.localizedDescription)")
                    return
                }
                self.completed = true
                print("SELECT NDEF application: SW \(Self.hex(Data([sw1, sw2]))), \(response.count) data bytes")
                session.alertMessage = sw1 == 0x90 && sw2 == 0x00 ? "NDEF application found." : "No NDEF application."
                session.invalidate()
            }
        }
    }

    private func readPage4(of tag: NFCMiFareTag) {
        print("MIFARE tag \(Self.hex(tag.identifier)), family \(tag.mifareFamily.rawValue)")
        // READ (30) page 4: four pages, 16 bytes, from the first page of user memory.
        tag.sendMiFareCommand(commandPacket: Data([0x30, 0x04])) { (response: Data, error: Error?) in
            DispatchQueue.main.async {
                guard let session = self.session else { return }
                if let error = error {
                    session.invalidate(errorMessage: "READ failed: \(error.localizedDescription)")
                    return
                }
                self.completed = true
                print("READ page 4: \(Self.hex(response))")
                session.alertMessage = "Read \(response.count) bytes."
                session.invalidate()
            }
        }
    }

    /// Bytes as upper-case hex pairs separated by spaces.
    nonisolated static func hex(_ data: Data) -> String {
        data.map { String(format: "%02X", $0) }.joined(separator: " ")
    }
}
