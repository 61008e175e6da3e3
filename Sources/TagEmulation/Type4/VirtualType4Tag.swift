import Foundation
import NFCTags
import Synchronization

/// A byte-accurate NFC Forum Type 4 tag: an NDEF application holding a CC file (E103) and an
/// NDEF file, answering ISO 7816-4 commands the way real tags do (docs/tags-and-readers.md §2).
///
/// - `.v2`: application `D2 76 00 00 85 01 01`, CC v2.0 (15 bytes), 2-byte NLEN.
/// - `.v3`: same application, CC v3.0 (17 bytes), 4-byte ENLEN, B1/D7 with offset data objects.
/// - `.v1`: legacy application `D2 76 00 00 85 01 00`, CC mapping 1.0, file SELECT with P2 = 00.
///
/// Strict on purpose, so tests see every wrong command: v2/v3 take file SELECT only with
/// P2 = 0C, v1 only with P2 = 00 (else `6A 86`). Thread-safe: `respond` may run on any thread.
public final class VirtualType4Tag: VirtualTag, Sendable {
    /// The NDEF mapping the tag implements.
    public enum Version: Sendable, Equatable {
        case v1, v2, v3

        /// Mapping version byte of the CC.
        public var mappingVersion: UInt8 {
            switch self {
            case .v1: return 0x10
            case .v2: return 0x20
            case .v3: return 0x30
            }
        }

        /// NLEN (2) or ENLEN (4).
        public var lengthFieldSize: Int { self == .v3 ? 4 : 2 }

        var applicationID: [UInt8] { self == .v1 ? Type4.legacyNDEFApplicationID : Type4.ndefApplicationID }
    }

    enum SelectedFile { case none, cc, ndef }

    public let version: Version
    public let uid: [UInt8]
    public let atqa: [UInt8]
    public let sak: UInt8 = 0x20
    public let ats: [UInt8]?
    /// MLe and MLc this tag enforces (also written into its CC).
    public let maxResponseLength: Int
    public let maxCommandLength: Int
    public let ndefFileID: [UInt8]

    /// The files and the selection, behind the tag's lock; the commands run on it
    /// (VirtualType4Tag+Commands.swift).
    struct Card {
        let version: Version
        let ndefFileID: [UInt8]
        let maxResponseLength: Int
        let maxCommandLength: Int
        var ccFile: [UInt8]
        var ndefFile: [UInt8]
        var ccFileWritable: Bool
        var applicationSelected = false
        var selectedFile = SelectedFile.none
    }

    let card: Mutex<Card>

    /// - Parameters:
    ///   - version: the mapping (see the type's comment).
    ///   - ndef: the NDEF message the file holds (empty = NLEN 0).
    ///   - maxResponseLength: MLe, at least 0x0F. Above 255 the tag takes extended Le.
    ///   - maxCommandLength: MLc, at least 0x0D.
    ///   - maxSize: NDEF file size with NLEN/ENLEN; nil = 2048 or what `ndef` needs.
    ///   - readAccess / writeAccess: the CC access bytes (`00` granted, `FF` denied, `80`–`FE` granted).
    ///   - ccFileWritable: whether UPDATE BINARY on the CC file is allowed (locking by CC update).
    /// - Precondition: `ndef` fits `maxSize` (a test set-up mistake, not tag input).
    public init(version: Version = .v2, ndef: [UInt8] = [], maxResponseLength: Int = 0xF6, maxCommandLength: Int = 0xF6,
                maxSize: Int? = nil, readAccess: UInt8 = 0x00, writeAccess: UInt8 = 0x00,
                ndefFileID: [UInt8] = [0xE1, 0x04], ccFileWritable: Bool = true,
                uid: [UInt8] = [0x04, 0x53, 0x7A, 0x2A, 0x9C, 0x61, 0x80],
                atqa: [UInt8] = [0x03, 0x44], ats: [UInt8] = VirtualType4Tag.defaultATS) {
        let lengthSize = version.lengthFieldSize
        let size = maxSize ?? max(2048, ndef.count + lengthSize)
        precondition(ndef.count + lengthSize <= size, "NDEF message of \(ndef.count) bytes does not fit a \(size)-byte file")
        self.version = version
        self.uid = uid
        self.atqa = atqa
        self.ats = ats
        self.maxResponseLength = maxResponseLength
        self.maxCommandLength = maxCommandLength
        self.ndefFileID = ndefFileID
        let cc = Type4CapabilityContainer(mappingVersion: version.mappingVersion, maxResponseLength: maxResponseLength,
                                          maxCommandLength: maxCommandLength, ndefFileID: ndefFileID, maxNDEFFileSize: size,
                                          readAccess: Type4AccessCondition(byte: readAccess),
                                          writeAccess: Type4AccessCondition(byte: writeAccess))
        var file = [UInt8](repeating: 0, count: size)
        let nlen = ndef.count
        for i in 0..<lengthSize { file[i] = UInt8((nlen >> (8 * (lengthSize - 1 - i))) & 0xFF) }
        file.replaceSubrange(lengthSize..<(lengthSize + ndef.count), with: ndef)
        card = Mutex(Card(version: version, ndefFileID: ndefFileID, maxResponseLength: maxResponseLength,
                          maxCommandLength: maxCommandLength, ccFile: cc.bytes, ndefFile: file, ccFileWritable: ccFileWritable))
    }

    /// ATS of an NTAG 424-like tag: TL 06, T0 77 (TA, TB, TC, FSCI 7), TA 77, TB 71, TC 02,
    /// historical byte 80.
    public static let defaultATS: [UInt8] = [0x06, 0x77, 0x77, 0x71, 0x02, 0x80]

    /// The capability container file, as stored (tests may replace it to make it malformed).
    public var ccFile: [UInt8] {
        get { card.withLock { $0.ccFile } }
        set { card.withLock { $0.ccFile = newValue } }
    }

    /// The whole NDEF file: NLEN/ENLEN then the message, then unused bytes.
    public var ndefFile: [UInt8] {
        get { card.withLock { $0.ndefFile } }
        set { card.withLock { $0.ndefFile = newValue } }
    }

    public var ccFileWritable: Bool {
        get { card.withLock { $0.ccFileWritable } }
        set { card.withLock { $0.ccFileWritable = newValue } }
    }

    /// The message NLEN/ENLEN points at; nil when the length is out of the file.
    public var ndefMessage: [UInt8]? {
        let file = ndefFile
        let n = version.lengthFieldSize
        guard file.count >= n else { return nil }
        let length = file.prefix(n).reduce(0) { $0 << 8 | Int($1) }
        guard n + length <= file.count else { return nil }
        return Array(file[n..<(n + length)])
    }

    /// ATS historical bytes (what a PC/SC reader puts into the ATR); empty if the ATS is malformed.
    public var historicalBytes: [UInt8] {
        guard let ats, let parsed = try? ATS(bytes: ats) else { return [] }
        return parsed.historicalBytes
    }

    public func respond(to frame: [UInt8]) -> [UInt8]? {
        card.withLock { $0.handle(frame).bytes }
    }

    public func activate() {
        card.withLock {
            $0.applicationSelected = false
            $0.selectedFile = .none
        }
    }
}
