// The reader code of an iOS app that talks to tags directly: an ISO 14443 tag reader session
// switching over `NFCTag`. ISO 7816 cards get a SELECT of the NFC Forum NDEF application and
// the status word is printed; MIFARE Ultralight / NTAG tags get a READ of page 4 and the 16
// bytes are printed. Only the import differs from iOS (`import CoreNFC` there, plus the
// com.apple.developer.nfc.readersession entitlements); main.swift is the Linux app around it.
import CoreNFCLinux
import Foundation

final class TagReaderController: NSObject, NFCTagReaderSessionDelegate {
    private(set) var session: NFCTagReaderSession?
    /// True once a command got its answer.
    private(set) var completed = false
    /// Called once the session has ended (an iOS app would update its UI here).
    var sessionDidEnd: ((Error) -> Void)?

    /// SELECT by name (00 A4 04 00), Lc 07, the NDEF application D2 76 00 00 85 01 01, Le 00.
    static var selectNDEFApplication: NFCISO7816APDU { NFCISO7816APDU(
        instructionClass: 0x00, instructionCode: 0xA4, p1Parameter: 0x04, p2Parameter: 0x00,
        data: Data([0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]), expectedResponseLength: 256) }

    func beginScanning() {
        session = NFCTagReaderSession(pollingOption: .iso14443, delegate: self, queue: nil)
        session?.alertMessage = "Hold a card or tag near the reader."
        session?.begin()
    }

    // MARK: - NFCTagReaderSessionDelegate

    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {}

    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
        if tags.count > 1 {
            session.alertMessage = "More than 1 tag is detected. Please remove all tags and try again."
            // Swift 6: the session is not Sendable; Core NFC sessions may be used from any thread.
            nonisolated(unsafe) let session = session
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(500)) {
                session.restartPolling()
            }
            return
        }
        guard let tag = tags.first else { return }
        session.connect(to: tag) { (error: Error?) in
            if let error = error {
                session.invalidate(errorMessage: "Unable to connect to tag: \(error.localizedDescription)")
                return
            }
            switch tag {
            case let .iso7816(card):
                self.selectNDEFApplication(on: card, in: session)
            case let .miFare(mifare):
                self.readPage4(of: mifare, in: session)
            default:
                session.invalidate(errorMessage: "This tag is not supported.")
            }
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

    private func selectNDEFApplication(on card: NFCISO7816Tag, in session: NFCTagReaderSession) {
        print("ISO 7816 card \(Self.hex(card.identifier))")
        card.sendCommand(apdu: Self.selectNDEFApplication) { (response: Data, sw1: UInt8, sw2: UInt8, error: Error?) in
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

    private func readPage4(of tag: NFCMiFareTag, in session: NFCTagReaderSession) {
        print("MIFARE tag \(Self.hex(tag.identifier)), family \(tag.mifareFamily.rawValue)")
        // READ (30) page 4: four pages, 16 bytes, from the first page of user memory.
        tag.sendMiFareCommand(commandPacket: Data([0x30, 0x04])) { (response: Data, error: Error?) in
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

    /// Bytes as upper-case hex pairs separated by spaces.
    static func hex(_ data: Data) -> String {
        data.map { String(format: "%02X", $0) }.joined(separator: " ")
    }
}
