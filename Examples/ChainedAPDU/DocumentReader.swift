// The reader code of an iOS app that reads files from an ISO 7816 card the way passport readers
// do: an NFCTagReaderSession with `.iso14443`, a `TagReader` that wraps `sendCommand(apdu:)` with
// async/await and turns status words into errors, an access-control step tried first (GET
// CHALLENGE, the opening of Basic Access Control), and READ BINARY chained by offset until the
// file's length is read. Here the "document" is a Type 4 tag's NDEF application: the capability
// container tells the file to read and the largest chunk.
// Only the import differs from iOS (`import CoreNFC` there).
import CoreNFCLinux

@available(iOS 15, *)
enum DocumentReaderError: LocalizedError {
    case responseError(String, UInt8, UInt8)
    case tagNotValid
    case moreThanOneTag
    case userCanceled
    case invalidFile(String)

    var errorDescription: String? {
        switch self {
        case let .responseError(step, sw1, sw2): return String(format: "%@ failed: SW %02X %02X", step, sw1, sw2)
        case .tagNotValid: return "Tag not valid."
        case .moreThanOneTag: return "More than 1 tag was found."
        case .userCanceled: return "Reading was canceled."
        case let .invalidFile(what): return "Invalid file: \(what)"
        }
    }
}

struct ResponseAPDU {
    var data: [UInt8]
    var sw1: UInt8
    var sw2: UInt8
}

/// Talks to the card: one APDU at a time, with async/await.
@available(iOS 15, *)
final class TagReader {
    let tag: NFCISO7816Tag
    /// The largest READ BINARY asked for; the card's own limit lowers it.
    var maxDataLengthToRead: Int
    private(set) var readCommands = 0
    var progress: ((String) -> Void)?

    init(tag: NFCISO7816Tag, maxDataLengthToRead: Int = 0xA0) {
        self.tag = tag
        self.maxDataLengthToRead = maxDataLengthToRead
    }

    func selectApplication(_ aid: [UInt8]) async throws {
        let cmd = NFCISO7816APDU(instructionClass: 0x00, instructionCode: 0xA4, p1Parameter: 0x04, p2Parameter: 0x00,
                                 data: Data(aid), expectedResponseLength: 256)
        _ = try await send(cmd: cmd, step: "SELECT application")
    }

    /// GET CHALLENGE, the first step of Basic Access Control: nil when the card has no access control.
    func getChallenge() async throws -> [UInt8]? {
        let cmd = NFCISO7816APDU(instructionClass: 0x00, instructionCode: 0x84, p1Parameter: 0x00, p2Parameter: 0x00,
                                 data: Data(), expectedResponseLength: 8)
        do {
            return try await send(cmd: cmd, step: "GET CHALLENGE").data
        } catch DocumentReaderError.responseError(_, 0x6D, 0x00) {
            return nil
        }
    }

    func selectFile(_ fileID: [UInt8]) async throws {
        guard let cmd = NFCISO7816APDU(data: Data([0x00, 0xA4, 0x00, 0x0C, UInt8(fileID.count)] + fileID)) else {
            throw DocumentReaderError.invalidFile("file identifier")
        }
        _ = try await send(cmd: cmd, step: "SELECT file")
    }

    /// READ BINARY from `amountRead`, chained until `leftToRead` bytes came.
    func readBinaryData(leftToRead: Int, amountRead: Int) async throws -> [UInt8] {
        var readAmount = maxDataLengthToRead
        if leftToRead < maxDataLengthToRead { readAmount = leftToRead }
        let offset = withUnsafeBytes(of: UInt16(amountRead).bigEndian, Array.init)
        let cmd = NFCISO7816APDU(instructionClass: 0x00, instructionCode: 0xB0, p1Parameter: offset[0], p2Parameter: offset[1],
                                 data: Data(), expectedResponseLength: readAmount)
        readCommands += 1
        let response = try await send(cmd: cmd, step: "READ BINARY")
        guard !response.data.isEmpty else { throw DocumentReaderError.invalidFile("the card answered no bytes") }
        var data = response.data
        let remaining = leftToRead - response.data.count
        if remaining > 0 {
            data += try await readBinaryData(leftToRead: remaining, amountRead: amountRead + response.data.count)
        }
        return data
    }

    func send(cmd: NFCISO7816APDU, step: String) async throws -> ResponseAPDU {
        let (data, sw1, sw2) = try await tag.sendCommand(apdu: cmd)
        progress?(String(format: "%@ %02X%02X%02X%02X Le %d: SW %02X %02X, %d bytes", step, cmd.instructionClass,
                         cmd.instructionCode, cmd.p1Parameter, cmd.p2Parameter, cmd.expectedResponseLength, sw1, sw2,
                         data.count))
        let response = ResponseAPDU(data: [UInt8](data), sw1: sw1, sw2: sw2)
        if response.sw1 == 0x90 && response.sw2 == 0x00 { return response }
        throw DocumentReaderError.responseError(step, sw1, sw2)
    }
}

/// What was read.
struct DocumentFiles {
    var challenge: [UInt8]?
    var capabilityContainer: [UInt8]
    var ndefFile: [UInt8]
    var readCommands: Int
}

@available(iOS 15, *)
// Swift 6: the reader is `@MainActor`, like the UI it feeds, and gives the session the main queue,
// so its delegate conformance is `@preconcurrency` (checked at run time). The reading itself is
// `try await` on the tag, and Core NFC's async methods are nonisolated: it runs in a nonisolated
// function (`read(_:after:in:maxDataLengthToRead:progress:)`), whose result is Sendable.
@MainActor
final class DocumentReader: NSObject {
    private var readerSession: NFCTagReaderSession?
    private var continuation: CheckedContinuation<DocumentFiles, Error>?
    private var files: DocumentFiles?
    private var maxDataLengthToRead = 0xA0
    var progress: (@Sendable (String) -> Void)?

    func readDocument(maxDataLengthToRead: Int = 0xA0) async throws -> DocumentFiles {
        guard NFCTagReaderSession.readingAvailable else {
            throw NFCReaderError(.readerErrorUnsupportedFeature)
        }
        self.maxDataLengthToRead = maxDataLengthToRead
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<DocumentFiles, Error>) in
            self.continuation = continuation
            readerSession = NFCTagReaderSession(pollingOption: [.iso14443], delegate: self, queue: .main)
            readerSession?.alertMessage = "Hold the document near the reader."
            readerSession?.begin()
        }
    }

    private func finish(_ result: Result<DocumentFiles, Error>) {
        continuation?.resume(with: result)
        continuation = nil
    }

    /// Connects to `detected` and reads the document from `tag`, its ISO 7816 face.
    private nonisolated static func read(_ tag: NFCISO7816Tag, after detected: NFCTag, in session: NFCTagReaderSession,
                                         maxDataLengthToRead: Int, progress: (@Sendable (String) -> Void)?) async throws -> DocumentFiles {
        try await session.connect(to: detected)
        session.alertMessage = "Reading the document…"
        let reader = TagReader(tag: tag, maxDataLengthToRead: maxDataLengthToRead)
        reader.progress = progress
        try await reader.selectApplication([0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01])
        let challenge = try await reader.getChallenge()
        try await reader.selectFile([0xE1, 0x03])
        let ccLength = try await reader.readBinaryData(leftToRead: 2, amountRead: 0)
        let ccSize = Int(ccLength[0]) << 8 | Int(ccLength[1])
        guard ccSize >= 15 else { throw DocumentReaderError.invalidFile("capability container of \(ccSize) bytes") }
        let cc = try await reader.readBinaryData(leftToRead: ccSize, amountRead: 0)
        guard cc[7] == 0x04, cc[8] >= 6 else { throw DocumentReaderError.invalidFile("no NDEF file control TLV") }
        // The card's MLe caps each READ BINARY (docs/tags-and-readers.md §2, the capability container).
        let mle = Int(cc[3]) << 8 | Int(cc[4])
        reader.maxDataLengthToRead = max(1, min(reader.maxDataLengthToRead, mle))
        try await reader.selectFile(Array(cc[9...10]))
        let nlen = try await reader.readBinaryData(leftToRead: 2, amountRead: 0)
        let length = Int(nlen[0]) << 8 | Int(nlen[1])
        let body = length == 0 ? [] : try await reader.readBinaryData(leftToRead: length, amountRead: 2)
        return DocumentFiles(challenge: challenge, capabilityContainer: cc, ndefFile: body, readCommands: reader.readCommands)
    }
}

@available(iOS 15, *)
extension DocumentReader: @preconcurrency NFCTagReaderSessionDelegate {
    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {
        progress?("Session active")
    }

    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: Error) {
        readerSession = nil
        if let files = files {
            finish(.success(files))
            return
        }
        if let readerError = error as? NFCReaderError {
            switch readerError.code {
            case NFCReaderError.readerSessionInvalidationErrorUserCanceled:
                finish(.failure(DocumentReaderError.userCanceled))
            default:
                finish(.failure(readerError))
            }
        } else {
            finish(.failure(error))
        }
    }

    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
        if tags.count > 1 {
            session.alertMessage = "More than 1 tag was found. Please present only 1 tag."
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(500)) { session.restartPolling() }
            return
        }
        let tag = tags.first!
        var documentTag: NFCISO7816Tag
        switch tags.first! {
        case let .iso7816(tag):
            documentTag = tag
        default:
            finish(.failure(DocumentReaderError.tagNotValid))
            session.invalidate(errorMessage: "Tag not valid.")
            return
        }
        // Swift 6: the session and the tags are not Sendable, and Core NFC's async methods are
        // nonisolated, so awaiting them sends the session and the tags off the main actor. The compiler
        // cannot see that the reading is their only user meanwhile (the session runs one command at a
        // time): `nonisolated(unsafe)` says so.
        nonisolated(unsafe) let session = session, detected = tag, card = documentTag
        let maxDataLengthToRead = self.maxDataLengthToRead, progress = self.progress
        Task {
            do {
                self.files = try await Self.read(card, after: detected, in: session,
                                                 maxDataLengthToRead: maxDataLengthToRead, progress: progress)
                session.alertMessage = "Document read."
                session.invalidate()
            } catch {
                self.finish(.failure(error))
                session.invalidate(errorMessage: error.localizedDescription)
            }
        }
    }
}
