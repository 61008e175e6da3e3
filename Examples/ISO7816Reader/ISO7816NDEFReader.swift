// The reader code of an iOS app that talks ISO 7816 to a card itself (passport and transit
// readers are written this way): an NFCTagReaderSession, `.iso7816` tags, and the iOS 14
// `sendCommand(apdu:resultHandler:)` with `Result<NFCISO7816ResponseAPDU, Error>`. It reads an
// NFC Forum Type 4 tag's NDEF file by hand: SELECT application, SELECT and READ the capability
// container, SELECT the NDEF file, READ its length, READ the message in chunks.
// Only the import differs from iOS (`import CoreNFC` there).
//
// Swift 6: the reader is `@MainActor`. The session delivers its delegate calls on the main queue
// (`queue: .main`), so the conformance is `@preconcurrency` (checked at run time). Each APDU's
// `@Sendable` result handler hops back to the main actor with its Sendable `Result`; the next step
// is a `@MainActor` closure, so the card and the session it captures stay on the main actor.
import CoreNFCLinux

@MainActor
final class ISO7816NDEFReader: NSObject, @preconcurrency NFCTagReaderSessionDelegate {
    enum ReaderError: LocalizedError {
        case status(String, UInt8, UInt8)
        case badCapabilityContainer
        case badMessage
        var errorDescription: String? {
            switch self {
            case let .status(step, sw1, sw2): return String(format: "%@ failed with SW %02X %02X", step, sw1, sw2)
            case .badCapabilityContainer: return "The capability container is malformed."
            case .badMessage: return "The NDEF file does not hold one NDEF message."
            }
        }
    }

    private(set) var session: NFCTagReaderSession?
    var onMessage: ((NFCNDEFMessage) -> Void)?
    var onFailure: ((Error) -> Void)?
    /// The outcome, reported once the session has ended.
    private var outcome: Result<NFCNDEFMessage, Error>?

    func begin() {
        session = NFCTagReaderSession(pollingOption: [.iso14443], delegate: self, queue: .main)
        session?.alertMessage = "Hold a card near the reader."
        session?.begin()
    }

    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {}

    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: Error) {
        switch outcome ?? .failure(error) {
        case let .success(message): onMessage?(message)
        case let .failure(failure): onFailure?(failure)
        }
        outcome = nil
    }

    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
        guard case let .iso7816(card)? = tags.first else {
            session.invalidate(errorMessage: "Not an ISO 7816 card.")
            return
        }
        let didConnect: @MainActor (Error?) -> Void = { error in
            if let error = error {
                self.outcome = .failure(error)
                session.invalidate(errorMessage: error.localizedDescription)
                return
            }
            print("Card \(card.identifier.map { String(format: "%02X", $0) }.joined()), AID \(card.initialSelectedAID)")
            self.readNDEF(from: card) { result in
                switch result {
                case let .success(message):
                    self.outcome = .success(message)
                    session.alertMessage = "Read \(message.records.count) record(s)."
                    session.invalidate()
                case let .failure(error):
                    self.outcome = .failure(error)
                    session.invalidate(errorMessage: error.localizedDescription)
                }
            }
        }
        session.connect(to: tags.first!) { error in
            Task { @MainActor in didConnect(error) }
        }
    }

    // MARK: - Type 4 NDEF over APDUs

    private func readNDEF(from card: NFCISO7816Tag, completion: @escaping @MainActor (Result<NFCNDEFMessage, Error>) -> Void) {
        let selectApplication = NFCISO7816APDU(instructionClass: 0x00, instructionCode: 0xA4, p1Parameter: 0x04,
                                               p2Parameter: 0x00, data: Data([0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]),
                                               expectedResponseLength: 256)
        send(selectApplication, to: card, step: "SELECT application", completion) { _ in
            let selectCC = NFCISO7816APDU(data: Data([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03]))!
            self.send(selectCC, to: card, step: "SELECT CC", completion) { _ in
                self.send(Self.readBinary(offset: 0, length: 15), to: card, step: "READ CC", completion) { cc in
                    // CC: CCLEN(2) version(1) MLe(2) MLc(2), then the NDEF File Control TLV 04 06 id(2) size(2) …
                    let bytes = [UInt8](cc)
                    guard bytes.count >= 15, bytes[7] == 0x04 else {
                        completion(.failure(ReaderError.badCapabilityContainer))
                        return
                    }
                    let maxRead = max(1, min(255, Int(bytes[3]) << 8 | Int(bytes[4])))
                    let selectFile = NFCISO7816APDU(instructionClass: 0x00, instructionCode: 0xA4, p1Parameter: 0x00,
                                                    p2Parameter: 0x0C, data: Data(bytes[9...10]), expectedResponseLength: -1)
                    self.send(selectFile, to: card, step: "SELECT NDEF file", completion) { _ in
                        self.send(Self.readBinary(offset: 0, length: 2), to: card, step: "READ NLEN", completion) { nlen in
                            let length = Int(nlen.first ?? 0) << 8 | Int(nlen.dropFirst().first ?? 0)
                            self.readChunks(of: card, from: 2, remaining: length, maxRead: maxRead, into: Data(), completion)
                        }
                    }
                }
            }
        }
    }

    private func readChunks(of card: NFCISO7816Tag, from offset: Int, remaining: Int, maxRead: Int, into data: Data,
                            _ completion: @escaping @MainActor (Result<NFCNDEFMessage, Error>) -> Void) {
        guard remaining > 0 else {
            if let message = NFCNDEFMessage(data: data) {
                completion(.success(message))
            } else {
                completion(.failure(ReaderError.badMessage))
            }
            return
        }
        let length = min(remaining, maxRead)
        send(Self.readBinary(offset: offset, length: length), to: card, step: "READ BINARY", completion) { chunk in
            self.readChunks(of: card, from: offset + chunk.count, remaining: remaining - chunk.count, maxRead: maxRead,
                            into: data + chunk, completion)
        }
    }

    private static func readBinary(offset: Int, length: Int) -> NFCISO7816APDU {
        NFCISO7816APDU(instructionClass: 0x00, instructionCode: 0xB0, p1Parameter: UInt8(offset >> 8),
                       p2Parameter: UInt8(offset & 0xFF), data: Data(), expectedResponseLength: length)
    }

    /// Sends one APDU with the Result handler; anything but 90 00 ends the read.
    private func send(_ apdu: NFCISO7816APDU, to card: NFCISO7816Tag, step: String,
                      _ completion: @escaping @MainActor (Result<NFCNDEFMessage, Error>) -> Void,
                      then next: @escaping @MainActor (Data) -> Void) {
        card.sendCommand(apdu: apdu) { (result: Result<NFCISO7816ResponseAPDU, Error>) in
            Task { @MainActor in
                switch result {
                case let .success(response):
                    print(String(format: "%@: SW %02X %02X, %d bytes", step, response.statusWord1, response.statusWord2,
                                 response.payload?.count ?? 0))
                    guard response.statusWord1 == 0x90, response.statusWord2 == 0x00 else {
                        completion(.failure(ReaderError.status(step, response.statusWord1, response.statusWord2)))
                        return
                    }
                    next(response.payload ?? Data())
                case let .failure(error):
                    completion(.failure(error))
                }
            }
        }
    }
}
