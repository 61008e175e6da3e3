/// Hard limits the decoder enforces so that hostile input cannot make it allocate or recurse
/// without bound. Every length read from the input is also checked against the bytes that remain,
/// so memory use never exceeds a small multiple of the input size.
public struct NDEFLimits: Sendable, Hashable {
    /// Largest message accepted, in bytes (the whole input of one decode).
    public var maxMessageBytes: Int
    /// Most records in one message (after chunks are reassembled).
    public var maxRecords: Int
    /// Most chunks (raw records) one chunked record may be made of.
    public var maxChunks: Int
    /// Most nested messages (Smart Poster payloads) below the top-level message.
    public var maxNestingDepth: Int

    public init(maxMessageBytes: Int = 1 << 20, maxRecords: Int = 1024, maxChunks: Int = 1024,
                maxNestingDepth: Int = 4) {
        self.maxMessageBytes = maxMessageBytes
        self.maxRecords = maxRecords
        self.maxChunks = maxChunks
        self.maxNestingDepth = maxNestingDepth
    }

    /// 1 MiB, 1024 records, 1024 chunks per record, 4 levels of nesting.
    public static let `default` = NDEFLimits()

    /// Names a limit in `NDEFError.limitExceeded`.
    public enum Kind: String, Sendable, Hashable {
        case messageBytes = "message size"
        case records = "record count"
        case chunks = "chunk count"
        case nestingDepth = "nesting depth"
    }
}
