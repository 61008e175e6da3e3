import Foundation
import NDEF
import NFCTags
import ReaderCore
import Synchronization

/// What every `NFCNDEFTag` a session hands out is: one presence of a tag, valid for one polling
/// generation. Operations run on the session's engine and answer on `sessionQueue`.
///
/// Each tag family is a final `NSObject` class (as on iOS: equality is identity, one object per
/// detection; `copy()` is the same tag; archiving keeps the identifier only, a live tag cannot be
/// decoded) holding only `let`s, so the compiler checks that it is `Sendable`. What they share
/// comes from this protocol's extension, not from a base class.
protocol SessionTag: NSObject, NFCNDEFTag, Sendable {
    var core: SessionTagCore { get }
    init(_ core: SessionTagCore)
    /// Core NFC's name of the tag's family, for `description`.
    var familyName: String { get }
    /// This object as Core NFC's tag enum.
    var asNFCTag: NFCTag? { get }
}

/// What identifies a session's tag object: its session, the tag's arrival, the polling generation.
struct SessionTagCore: Sendable {
    let engine: SessionEngine
    let presence: TagPresence
    let generation: Int
}

extension SessionTag {
    init(engine: SessionEngine, presence: TagPresence, generation: Int) {
        self.init(SessionTagCore(engine: engine, presence: presence, generation: generation))
    }

    var engine: SessionEngine { core.engine }
    var presence: TagPresence { core.presence }
    var generation: Int { core.generation }

    static var supportsSecureCoding: Bool { true }

    func encode(with coder: NSCoder) {
        coder.encode(Data(presence.detected.uid) as NSData, forKey: "identifier")
    }

    /// The same tag: a tag object stands for one detection, it has no state to copy.
    func copy(with zone: NSZone? = nil) -> Any { self }

    /// The session that detected this tag (weak: nil once the app let go of an ended session).
    var session: (any NFCReaderSessionProtocol)? { engine.host as? NFCReaderSession }

    /// `description` of every family: `<NFCMiFareTag: identifier 04A1…, reader "…">`.
    var tagDescription: String {
        let uid = presence.detected.uid.hexString
        return "<\(familyName): identifier \(uid), reader \"\(presence.detected.reader.name)\">"
    }

    /// The reader-level view of the tag (reader, UID, ATR).
    var detectedTag: DetectedTag { presence.detected }

    var isAvailable: Bool { engine.isAvailable(self) }

    func queryNDEFStatus(completionHandler: @escaping @Sendable (NFCNDEFStatus, Int, (any Error)?) -> Void) {
        engine.perform(self, kind: .read, { connection -> (NFCNDEFStatus, Int) in
            let operations: any NDEFTagOperations
            do {
                operations = try connection.ndef()
            } catch TagError.unsupported, TagError.notNDEFFormatted {
                return (.notSupported, 0)
            }
            let (status, capacity) = try operations.queryNDEFStatus()
            return (NFCNDEFStatus(status), capacity)
        }, completion: { result in
            switch result {
            case let .success((status, capacity)): completionHandler(status, capacity, nil)
            case let .failure(error): completionHandler(.notSupported, 0, error)
            }
        })
    }

    /// The message is decoded on the lane into the codec's `Sendable` value; Core NFC's
    /// `NFCNDEFMessage` is made from it on the session queue, for the handler.
    func readNDEF(completionHandler: @escaping @Sendable (NFCNDEFMessage?, (any Error)?) -> Void) {
        readDecodedNDEF { result in
            switch result {
            case let .success(message): completionHandler(NFCNDEFMessage(decoded: message), nil)
            case let .failure(error): completionHandler(nil, error)
            }
        }
    }

    /// `readNDEF` before Core NFC's message is made (the `async` form makes it in the awaiting task).
    func readDecodedNDEF(completion: @escaping @Sendable (Result<NDEFMessage, NFCReaderError>) -> Void) {
        let decode = engine.environment.decodeMessage
        engine.perform(self, kind: .read, { connection -> NDEFMessage in
            let bytes = try connection.ndef().readNDEF()
            guard !bytes.isEmpty else {
                throw NFCReaderError(.ndefReaderSessionErrorZeroLengthMessage, message: "the tag holds an empty NDEF message")
            }
            do {
                return try decode(bytes)
            } catch {
                throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "malformed NDEF message: \(error)")
            }
        }, completion: completion)
    }

    /// The app's message is encoded here, on the caller's thread: only its bytes go to the lane.
    func writeNDEF(_ ndefMessage: NFCNDEFMessage, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        let encoded: Result<[UInt8], NFCReaderError>
        if ndefMessage.records.isEmpty {
            encoded = .failure(NFCReaderError(.ndefReaderSessionErrorZeroLengthMessage, message: "the message has no records"))
        } else {
            do {
                encoded = .success(try engine.environment.encodeMessage(ndefMessage))
            } catch {
                encoded = .failure(NFCReaderError(.readerErrorInvalidParameter, message: "the message cannot be encoded: \(error)"))
            }
        }
        engine.perform(self, kind: .write, { connection in
            try connection.ndef().writeNDEF(encoded.get())
        }, completion: { result in
            completionHandler(result.failureValue)
        })
    }

    func writeLock(completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        engine.perform(self, kind: .write, { connection in
            try connection.ndef().writeLock()
        }, completion: { result in
            completionHandler(result.failureValue)
        })
    }
}

extension Result {
    var failureValue: Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }
}

/// A Type 2 tag (NTAG, Ultralight) as Core NFC shows it: `NFCMiFareTag` of family `.ultralight`.
final class MiFareSessionTag: NSObject, SessionTag, NFCMiFareTag {
    let core: SessionTagCore
    init(_ core: SessionTagCore) { self.core = core }
    /// Always nil: a tag is a handle on a connection in one session, which an archive cannot hold.
    init?(coder: NSCoder) { nil }

    override var description: String { tagDescription }

    /// A MIFARE Classic card (read as NDEF beyond Core NFC, docs/tags-and-readers.md §10) has no
    /// family of Apple's: `.unknown`.
    public var mifareFamily: NFCMiFareFamily { presence.detected.technology == .mifareClassic ? .unknown : .ultralight }
    public var type: __NFCTagType { .miFare }
    var familyName: String { "NFCMiFareTag" }
    public var identifier: Data { Data(presence.detected.uid) }
    public var historicalBytes: Data? { nil }

    var asNFCTag: NFCTag? { .miFare(self) }

    public func sendMiFareCommand(commandPacket: Data, completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void) {
        let packet = [UInt8](commandPacket)
        engine.perform(self, kind: .command, { connection -> [UInt8] in
            guard let link = connection.link.type2 else {
                throw NFCReaderError(.readerErrorUnsupportedFeature, message: "the reader offers no Type 2 command channel")
            }
            return try Type2Command.send(packet, over: link)
        }, completion: { result in
            switch result {
            case let .success(reply): completionHandler(Data(reply), nil)
            case let .failure(error): completionHandler(Data(), error)
            }
        })
    }

    public func sendMiFareISO7816Command(_ apdu: NFCISO7816APDU,
                                         completionHandler: @escaping @Sendable (Data, UInt8, UInt8, (any Error)?) -> Void) {
        engine.perform(self, kind: .command, { _ -> Void in
            throw NFCReaderError(.readerErrorUnsupportedFeature, message: "a MIFARE Ultralight tag takes no ISO 7816 APDUs")
        }, completion: { result in
            completionHandler(Data(), 0, 0, result.failureValue)
        })
    }
}

/// An ISO-DEP card (NFC Forum Type 4, smart cards) as Core NFC shows it.
final class ISO7816SessionTag: NSObject, SessionTag, NFCISO7816Tag {
    let core: SessionTagCore
    private let selectedAID = Mutex("")
    init(_ core: SessionTagCore) { self.core = core }
    init?(coder: NSCoder) { nil }

    override var description: String { tagDescription }

    public var initialSelectedAID: String { selectedAID.withLock { $0 } }
    public var type: __NFCTagType { .iso7816Compatible }
    var familyName: String { "NFCISO7816Tag" }
    public var identifier: Data { Data(presence.detected.uid) }
    public var historicalBytes: Data? {
        presence.detected.historicalBytes.isEmpty ? nil : Data(presence.detected.historicalBytes)
    }
    public var applicationData: Data? { nil }
    public var proprietaryApplicationDataCoding: Bool { false }

    var asNFCTag: NFCTag? { .iso7816(self) }

    /// Tries SELECT by name (`00 A4 04 00 Lc AID 00`) for each AID in order; the first answered
    /// with 90 00 becomes `initialSelectedAID` (iOS does this with the Info.plist list).
    func selectInitialApplication(from aids: [[UInt8]], over channel: any Transceiver) {
        for aid in aids where !aid.isEmpty && aid.count <= 16 {
            let command: [UInt8] = [0x00, 0xA4, 0x04, 0x00, UInt8(aid.count)] + aid + [0x00]
            guard let reply = try? channel.transceive(command), reply.count >= 2,
                  reply[reply.count - 2] == 0x90, reply[reply.count - 1] == 0x00 else { continue }
            selectedAID.withLock { $0 = aid.hexString }
            return
        }
    }

    public func sendCommand(apdu: NFCISO7816APDU, completionHandler: @escaping @Sendable (Data, UInt8, UInt8, (any Error)?) -> Void) {
        // The app's APDU is encoded here, on the caller's thread: only its bytes go to the lane.
        let encoded = Result { try apdu.encoded() }
        engine.perform(self, kind: .command, { connection -> (Data, UInt8, UInt8) in
            let command = try encoded.get()
            guard let channel = connection.link.apdu else {
                throw NFCReaderError(.readerErrorUnsupportedFeature, message: "the reader offers no APDU channel for this tag")
            }
            connection.channelUsedDirectly()
            let reply = try channel.transceive(command)
            guard reply.count >= 2 else {
                throw NFCReaderError(.readerTransceiveErrorTagResponseError,
                                     message: "reply of \(reply.count) bytes has no status word")
            }
            return (Data(reply.dropLast(2)), reply[reply.count - 2], reply[reply.count - 1])
        }, completion: { result in
            switch result {
            case let .success((data, sw1, sw2)): completionHandler(data, sw1, sw2, nil)
            case let .failure(error): completionHandler(Data(), 0, 0, error)
            }
        })
    }
}
