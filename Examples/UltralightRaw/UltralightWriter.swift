// The reader code of an iOS NTAG tool that writes a tag page by page with native commands, as
// Apple's "Creating NFC Tags from Your iPhone" sample does: an NFCTagReaderSession, `.miFare`
// tags of family `.ultralight`, READ (30) of the capability container, WRITE (A2) of each page
// checking the 4-bit ACK `response[0] == 0x0A`, then a READ back with the async form.
// Only the import differs from iOS (`import CoreNFC` there).
//
// Swift 6: the writer is `@MainActor`; the session delivers its delegate calls on the main queue
// (`queue: .main`), so the conformance is `@preconcurrency` (checked at run time). Each command's
// `@Sendable` handler hops back to the main actor with its Sendable reply; the next step is a
// `@MainActor` closure or reads the tag and session kept by the writer.
import CoreNFCLinux

@MainActor
final class UltralightWriter: NSObject, @preconcurrency NFCTagReaderSessionDelegate {
    enum WriteError: LocalizedError {
        case notUltralight
        case noCapabilityContainer
        case tooLarge(Int, Int)
        case nak(page: UInt8, response: Data)
        case verifyFailed
        var errorDescription: String? {
            switch self {
            case .notUltralight: return "Not a MIFARE Ultralight / NTAG tag."
            case .noCapabilityContainer: return "The tag has no NDEF capability container."
            case let .tooLarge(needed, capacity): return "The message needs \(needed) bytes, the tag has \(capacity)."
            case let .nak(page, response): return "Page \(page) not written (reply \(response.map { String(format: "%02X", $0) }.joined()))."
            case .verifyFailed: return "The tag does not read back what was written."
            }
        }
    }

    private(set) var session: NFCTagReaderSession?
    /// The tag the session is connected to.
    private var connectedTag: NFCMiFareTag?
    private let url: URL
    var onDone: ((Result<Int, Error>) -> Void)?
    /// The outcome, reported once the session has ended.
    private var outcome: Result<Int, Error>?

    init(url: URL) {
        self.url = url
        super.init()
    }

    func begin() {
        session = NFCTagReaderSession(pollingOption: .iso14443, delegate: self, queue: .main)
        session?.alertMessage = "Hold an NTAG near the reader to write it."
        session?.begin()
    }

    /// The NDEF TLV holding one short URI record, padded to whole pages.
    func tlvBytes() -> [UInt8]? {
        guard let uri = NFCNDEFPayload.wellKnownTypeURIPayload(url: url) else { return nil }
        let payload = [UInt8](uri.payload)
        guard payload.count < 256 else { return nil }
        let record: [UInt8] = [0xD1, 0x01, UInt8(payload.count), 0x55] + payload  // MB ME SR, well-known "U"
        var tlv: [UInt8] = [0x03, UInt8(record.count)] + record + [0xFE]
        while tlv.count % 4 != 0 { tlv.append(0x00) }
        return tlv
    }

    // MARK: - NFCTagReaderSessionDelegate

    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {}

    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: Error) {
        onDone?(outcome ?? .failure(error))
        outcome = nil
    }

    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
        guard case let .miFare(tag) = tags.first!, tag.mifareFamily == .ultralight else {
            fail(session, WriteError.notUltralight)
            return
        }
        connectedTag = tag
        session.connect(to: tags.first!) { error in
            Task { @MainActor in
                guard let session = self.session, let tag = self.connectedTag else { return }
                if let error = error {
                    self.fail(session, error)
                    return
                }
                self.write(to: tag, in: session)
            }
        }
    }

    // MARK: - Commands

    private func write(to tag: NFCMiFareTag, in session: NFCTagReaderSession) {
        // READ page 3: the capability container E1 10 SIZE ACCESS in its first 4 bytes.
        tag.sendMiFareCommand(commandPacket: Data([0x30, 0x03])) { (response: Data, error: Error?) in
            Task { @MainActor in self.didReadCapabilityContainer(response, error: error) }
        }
    }

    private func didReadCapabilityContainer(_ response: Data, error: Error?) {
        guard let session = session, let tag = connectedTag else { return }
        if let error = error {
            fail(session, error)
            return
        }
        guard response.count >= 4, response[0] == 0xE1 else {
            fail(session, WriteError.noCapabilityContainer)
            return
        }
        let capacity = Int(response[2]) * 8
        guard let tlv = tlvBytes(), tlv.count <= capacity else {
            fail(session, WriteError.tooLarge(tlvBytes()?.count ?? 0, capacity))
            return
        }
        let pages = stride(from: 0, to: tlv.count, by: 4).map { Array(tlv[$0..<$0 + 4]) }
        writePages(pages, from: 4, to: tag, in: session) {
            self.verify(tlv, on: tag, in: session)
        }
    }

    private func writePages(_ pages: [[UInt8]], from page: UInt8, to tag: NFCMiFareTag, in session: NFCTagReaderSession,
                            then done: @escaping @MainActor () -> Void) {
        guard let data = pages.first else {
            done()
            return
        }
        let command = Data([0xA2, page] + data)
        let next: @MainActor (Result<Data, Error>) -> Void = { result in
            switch result {
            case let .success(response):
                guard response.count == 1, response[0] == 0x0A else {
                    self.fail(session, WriteError.nak(page: page, response: response))
                    return
                }
                print(String(format: "WRITE page %d: ACK", page))
                self.writePages(Array(pages.dropFirst()), from: page + 1, to: tag, in: session, then: done)
            case let .failure(error):
                self.fail(session, error)
            }
        }
        tag.sendMiFareCommand(commandPacket: command) { (result: Result<Data, Error>) in
            Task { @MainActor in next(result) }
        }
    }

    private func verify(_ tlv: [UInt8], on tag: NFCMiFareTag, in session: NFCTagReaderSession) {
        // Swift 6: Core NFC's async methods are nonisolated, so awaiting one sends the tag off the main
        // actor, and the tag is not Sendable. The compiler cannot see that the read-back is the tag's
        // only user from here on (the session runs one command at a time): `nonisolated(unsafe)` says so.
        nonisolated(unsafe) let tag = tag
        Task {
            do {
                let readBack = try await Self.read(tlv.count, bytesFrom: tag)
                guard [UInt8](readBack.prefix(tlv.count)) == tlv else { throw WriteError.verifyFailed }
                print("Verified \(tlv.count) bytes.")
                outcome = .success(tlv.count)
                session.alertMessage = "Tag written."
                session.invalidate()
            } catch {
                fail(session, error)
            }
        }
    }

    /// READ (30) from page 4 with the async form, 16 bytes at a time, until `count` bytes came.
    private nonisolated static func read(_ count: Int, bytesFrom tag: NFCMiFareTag) async throws -> Data {
        var readBack = Data()
        var page: UInt8 = 4
        while readBack.count < count {
            readBack += try await tag.sendMiFareCommand(commandPacket: Data([0x30, page]))
            page += 4
        }
        return readBack
    }

    private func fail(_ session: NFCTagReaderSession, _ error: Error) {
        outcome = .failure(error)
        session.invalidate(errorMessage: error.localizedDescription)
    }
}
