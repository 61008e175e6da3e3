import NDEF

/// An NFC Forum Type 4 tag (ISO-DEP + ISO 7816-4) driven through an APDU `Transceiver`
/// (docs/tags-and-readers.md §2).
///
/// The first operation on an object opens the tag: SELECT the NDEF application (v2/v3 AID,
/// falling back to the legacy v1 AID on `6A 82`), SELECT and READ the capability container. The
/// object (one per connection) then remembers the CC and which file is selected, so later
/// operations skip what is already known: a message up to MLe − 2 bytes reads in exactly 5
/// exchanges on a fresh object (6 for a mapping 3.0 tag, whose 17-byte CC takes two reads, and for
/// legacy tags, which need a second SELECT), `queryNDEFStatus()` after that costs nothing, and a
/// read after a write costs one READ BINARY. Any failed exchange, or `forgetState()` (raw APDUs
/// went through the same channel), drops what was remembered.
/// Writes are tear-safe: NLEN = 0 first, then the message, then the real NLEN.
///
/// All errors are `TagError`; a status word other than `90 00` is `.status(sw1:sw2:)`.
public final class Type4Tag: NDEFTagOperations {
    /// The channel to the tag; every command is one `transceive`.
    public let transceiver: Transceiver
    /// Whether the reader passes extended-length APDUs. When false, Le and Lc stay ≤ 255
    /// whatever MLe/MLc allow; when true they go up to MLe/MLc (at most 65535).
    public let extendedLength: Bool
    /// The largest message `readNDEF()` reads: a longer NLEN/ENLEN is refused before any of the
    /// message is read (the decoder would refuse it anyway, after minutes of reading 2 MB).
    public let maxMessageLength: Int

    /// - Parameters:
    ///   - transceiver: an ISO 7816 channel to an ISO 14443-4 tag.
    ///   - extendedLength: true only when the reader and tag take extended-length APDUs.
    ///   - maxMessageLength: the decoder's limit by default (`NDEFLimits.default`, 1 MiB).
    public init(transceiver: Transceiver, extendedLength: Bool = false,
                maxMessageLength: Int = NDEFLimits.default.maxMessageBytes) {
        self.transceiver = transceiver
        self.extendedLength = extendedLength
        self.maxMessageLength = maxMessageLength
    }

    /// What `open()` learned: the CC and whether the tag only has the legacy v1 application.
    struct Session {
        var cc: Type4CapabilityContainer
        let legacy: Bool
    }

    /// The file a SELECT left selected on the tag, as far as this object knows.
    enum SelectedFile: Equatable {
        case capabilityContainer
        case ndef
    }

    /// The tag as opened on this connection; nil until the first operation and after a failure.
    private var session: Session?
    /// nil: unknown (nothing selected yet, or another party used the channel).
    var selectedFile: SelectedFile?

    /// The capability container this object read, without any exchange; nil before the first
    /// operation (or after a failure / `forgetState()`). Reports use it to describe the tag
    /// from what the read already learned.
    public var knownCapabilityContainer: Type4CapabilityContainer? { session?.cc }

    /// Forgets the CC and the selected file: the next operation opens the tag again. Call it after
    /// sending other APDUs over the same channel (they may select another file or application).
    public func forgetState() {
        session = nil
        selectedFile = nil
    }

    /// Selects the NDEF application and the CC file and reads the CC (3 or 4 exchanges; none when
    /// this object already knows it).
    /// - Throws: `TagError.notNDEFFormatted` when neither NDEF application exists,
    ///   `TagError.invalidTagData` / `.unsupported` for a CC that breaks the mapping, and any
    ///   transport or status error.
    public func readCapabilityContainer() throws(TagError) -> Type4CapabilityContainer {
        try guarded { () throws(TagError) in try open().cc }
    }

    /// Status and capacity from the CC (3 exchanges, 4 for v3.0 or legacy tags; none when this
    /// object already read the CC). A tag without an NDEF application, or whose NDEF file cannot
    /// be read, is `.notSupported` with capacity 0.
    /// - Throws: `TagError` for transport errors, unexpected status words and a malformed CC.
    public func queryNDEFStatus() throws(TagError) -> (status: NDEFTagStatus, capacity: Int) {
        let session: Session
        do throws(TagError) {
            session = try guarded { () throws(TagError) in try open() }
        } catch TagError.notNDEFFormatted {
            return (.notSupported, 0)
        }
        guard session.cc.readAccess.isGranted else { return (.notSupported, 0) }
        return (session.cc.writeAccess.isGranted ? .readWrite : .readOnly, session.cc.capacity)
    }

    /// Reads the NDEF message: one READ BINARY from offset 0 returns NLEN and the first bytes,
    /// then MLe-sized chunks (B1 with an offset data object beyond 7FFF on v3.0 tags).
    /// - Returns: the message bytes; empty when NLEN is 0.
    /// - Throws: `TagError.unsupported` when read access is not granted,
    ///   `TagError.invalidTagData` when NLEN is 1, 2, beyond the file or beyond `maxMessageLength`
    ///   (checked before the message is read),
    ///   `TagError.malformedReply` for replies of the wrong size, `.status` and transport errors.
    public func readNDEF() throws(TagError) -> [UInt8] {
        try guarded { () throws(TagError) in try readMessage() }
    }

    private func readMessage() throws(TagError) -> [UInt8] {
        let session = try open()
        let cc = session.cc
        guard cc.readAccess.isGranted else {
            throw TagError.unsupported("NDEF file read access is \(cc.readAccess)")
        }
        try select(.ndef, of: session)
        let lengthSize = cc.lengthFieldSize
        let limits = Type4Limits(cc: cc, extendedLength: extendedLength)
        let first = try readBinary(offset: 0, count: min(limits.read, cc.maxNDEFFileSize))
        guard first.count >= lengthSize else {
            throw TagError.malformedReply("first READ BINARY returned \(first.count) bytes, NLEN needs \(lengthSize)")
        }
        let nlen = first.prefix(lengthSize).reduce(0) { $0 << 8 | Int($1) }
        try validate(nlen: nlen, cc: cc)
        guard nlen <= maxMessageLength else {
            let name = cc.usesExtendedNDEFLength ? "ENLEN" : "NLEN"
            throw TagError.invalidTagData("\(name) claims a \(nlen)-byte NDEF message, over the \(maxMessageLength)-byte limit: not read")
        }
        guard nlen > 0 else { return [] }
        var message = Array(first[lengthSize..<min(first.count, lengthSize + nlen)])
        message.reserveCapacity(min(nlen, 0x1_0000))
        while message.count < nlen {
            let offset = lengthSize + message.count
            let count = try nextChunk(offset: offset, remaining: nlen - message.count,
                                      limit: limits.read, odoLimit: limits.odoRead, cc: cc)
            message += try readBinary(offset: offset, count: count)
        }
        return message
    }

    /// Writes `message` tear-safely: NLEN (ENLEN) = 0, the message at offset 2 (4) in MLc-sized
    /// UPDATE BINARY chunks, then the real NLEN. A tear at any point leaves the old message,
    /// an empty one, or the new one. An empty `message` only writes NLEN = 0.
    /// - Throws: `TagError.readOnly` when write access is not granted,
    ///   `TagError.messageTooLarge` when it does not fit, `TagError.unsupported` for a 1- or
    ///   2-byte message or a v2.0 file whose end B0/D6 offsets cannot reach, `.status` and
    ///   transport errors.
    public func writeNDEF(_ message: [UInt8]) throws(TagError) {
        guard message.isEmpty || message.count >= 3 else {
            throw TagError.unsupported("an NDEF message of \(message.count) bytes (NLEN must be 0 or at least 3)")
        }
        try guarded { () throws(TagError) in try write(message) }
    }

    private func write(_ message: [UInt8]) throws(TagError) {
        let session = try open()
        let cc = session.cc
        guard cc.writeAccess.isGranted else { throw TagError.readOnly }
        guard message.count <= cc.capacity else {
            throw TagError.messageTooLarge(size: message.count, capacity: cc.capacity)
        }
        let lengthSize = cc.lengthFieldSize
        let limits = Type4Limits(cc: cc, extendedLength: extendedLength)
        // Plan every chunk before the first write, so an unreachable offset fails before anything changes.
        var chunks: [(offset: Int, count: Int)] = []
        var written = 0
        while written < message.count {
            let offset = lengthSize + written
            let count = try nextChunk(offset: offset, remaining: message.count - written,
                                      limit: limits.write, odoLimit: limits.odoWrite, cc: cc)
            chunks.append((offset, count))
            written += count
        }
        try select(.ndef, of: session)
        try updateBinary(offset: 0, data: [UInt8](repeating: 0, count: lengthSize))
        guard !message.isEmpty else { return }
        for chunk in chunks {
            let start = chunk.offset - lengthSize
            try updateBinary(offset: chunk.offset, data: Array(message[start..<(start + chunk.count)]))
        }
        try updateBinary(offset: 0, data: (0..<lengthSize).map { UInt8((message.count >> (8 * (lengthSize - 1 - $0))) & 0xFF) })
    }

    /// Makes the tag read-only: UPDATE BINARY of `FF` on the CC file's NDEF write-access byte
    /// (offset 14, or 16 for v3.0), then reads the byte back. A tag already at `FF` is left alone.
    ///
    /// Many tags keep their CC file read-only and lock only through a vendor command (e.g. ST25TA's
    /// permanent-state commands, NTAG 424's ChangeFileSettings); they answer the UPDATE with a
    /// status such as `69 82`, reported as `.status`.
    /// - Throws: `TagError.status` when the tag refuses, `TagError.unsupported` when it accepts but
    ///   the byte does not change, and transport errors.
    public func writeLock() throws(TagError) {
        try guarded { () throws(TagError) in
            let session = try open()
            guard session.cc.writeAccess != .denied else { return }
            let offset = session.cc.writeAccessOffset
            try select(.capabilityContainer, of: session)
            try updateBinary(offset: offset, data: [0xFF])
            let check = try readBinary(offset: offset, count: 1)
            guard check == [0xFF] else {
                throw TagError.unsupported("the tag kept write access \(check.hexString)h after UPDATE BINARY; it needs its vendor's lock command")
            }
            // The byte read back is the CC's new write access: remember it instead of reading the CC again.
            let cc = session.cc
            self.session?.cc = Type4CapabilityContainer(
                mappingVersion: cc.mappingVersion, maxResponseLength: cc.maxResponseLength,
                maxCommandLength: cc.maxCommandLength, ndefFileID: cc.ndefFileID,
                maxNDEFFileSize: cc.maxNDEFFileSize, readAccess: cc.readAccess, writeAccess: .denied)
        }
    }

    /// The CC's write access `FF` is a byte of a file: whether it can be changed back is the chip's.
    public func lockKind() throws(TagError) -> NDEFLockKind {
        .reversible("a Type 4 tag's write access is a byte of its CC file; whether it can be changed back is up to the chip")
    }

    // MARK: - Steps shared by the operations

    /// Runs `body`; on any error forgets the session (the tag may have changed or gone).
    private func guarded<T>(_ body: () throws(TagError) -> T) throws(TagError) -> T {
        do throws(TagError) {
            return try body()
        } catch {
            forgetState()
            throw error
        }
    }

    /// SELECTs `file` unless the tag has it selected already.
    private func select(_ file: SelectedFile, of session: Session) throws(TagError) {
        guard selectedFile != file else { return }
        selectedFile = nil
        try selectFile(file == .ndef ? session.cc.ndefFileID : Type4.ccFileID, legacy: session.legacy)
        selectedFile = file
    }

    /// The remembered session, else SELECT NDEF application, SELECT CC, READ CC (a second READ
    /// for the two extra v3.0 bytes). Leaves the CC file selected when it opens the tag.
    func open() throws(TagError) -> Session {
        if let session { return session }
        selectedFile = nil
        let legacy = try selectNDEFApplication()
        try selectFile(Type4.ccFileID, legacy: legacy)
        selectedFile = .capabilityContainer
        var bytes = try readBinary(offset: 0, count: Type4CapabilityContainer.v2Length)
        guard bytes.count == Type4CapabilityContainer.v2Length else {
            throw TagError.malformedReply("capability container read returned \(bytes.count) of 15 bytes")
        }
        let cclen = Int(bytes[0]) << 8 | Int(bytes[1])
        if bytes[2] >> 4 == 3, cclen >= Type4CapabilityContainer.v3Length {
            let rest = try readBinary(offset: Type4CapabilityContainer.v2Length, count: 2)
            guard rest.count == 2 else {
                throw TagError.malformedReply("capability container read returned \(rest.count) of 2 bytes")
            }
            bytes += rest
        }
        let opened = Session(cc: try Type4CapabilityContainer(bytes: bytes), legacy: legacy)
        session = opened
        return opened
    }

    /// NLEN 0 is an empty message; otherwise 3 ≤ NLEN ≤ maxSize − 2 (− 4 for ENLEN).
    func validate(nlen: Int, cc: Type4CapabilityContainer) throws(TagError) {
        let name = cc.usesExtendedNDEFLength ? "ENLEN" : "NLEN"
        if nlen == 0 { return }
        guard nlen >= 3 else { throw TagError.invalidTagData("\(name) \(nlen) is below the 3-byte minimum") }
        guard nlen <= cc.capacity else {
            throw TagError.invalidTagData("\(name) \(nlen) exceeds the file's \(cc.capacity) bytes")
        }
    }
}

