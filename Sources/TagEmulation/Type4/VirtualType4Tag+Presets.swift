// Ready-made Type 4 tags for tests, the benchmark and `demo`.
extension VirtualType4Tag {
    /// A URI record for `https://nfctap.dev/t4` (18 bytes): `D1 01 0E 55 04 "nfctap.dev/t4"`.
    public static let sampleURIMessage: [UInt8] =
        [0xD1, 0x01, 0x0E, 0x55, 0x04] + Array("nfctap.dev/t4".utf8)

    /// A well-formed NDEF message of exactly `size` bytes (at least 16): one MIME record
    /// `application/x` whose payload is a byte counter (short record up to 271 bytes).
    public static func sampleMessage(size: Int) -> [UInt8] {
        let type = Array("application/x".utf8)
        let shortHeader = 3 + type.count
        if size - shortHeader <= 0xFF, size >= shortHeader {
            let payloadSize = size - shortHeader
            // MB ME SR, TNF 2 (media type).
            return [0xD2, UInt8(type.count), UInt8(payloadSize)] + type + (0..<payloadSize).map { UInt8($0 & 0xFF) }
        }
        let payloadSize = max(0, size - (6 + type.count))
        // MB ME, TNF 2, 4-byte payload length.
        return [0xC2, UInt8(type.count)] + bigEndian32(payloadSize) + type + (0..<payloadSize).map { UInt8($0 & 0xFF) }
    }

    /// A v2 (or v3) tag holding `sampleURIMessage`: readable in 5 (6) exchanges.
    public static func smallMessage(version: Version = .v2) -> VirtualType4Tag {
        VirtualType4Tag(version: version, ndef: sampleURIMessage)
    }

    /// A tag holding a `size`-byte message in a file just large enough (plus 64 bytes).
    /// Use `.v3` for messages beyond 32 KB.
    public static func largeMessage(version: Version = .v2, size: Int = 4096, maxResponseLength: Int = 0xF6,
                                    maxCommandLength: Int = 0xF6) -> VirtualType4Tag {
        VirtualType4Tag(version: version, ndef: sampleMessage(size: size), maxResponseLength: maxResponseLength,
                        maxCommandLength: maxCommandLength, maxSize: size + version.lengthFieldSize + 64)
    }

    /// A read-only tag (write access `FF`) holding `sampleURIMessage`.
    public static func readOnly(version: Version = .v2) -> VirtualType4Tag {
        VirtualType4Tag(version: version, ndef: sampleURIMessage, writeAccess: 0xFF, ccFileWritable: false)
    }

    private static func bigEndian32(_ v: Int) -> [UInt8] {
        [UInt8((v >> 24) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }
}
