import Foundation
import NFCTags

/// A Linux addition beyond Core NFC, which has no MIFARE Classic: sector and block access to a
/// MIFARE Classic card (`mifareFamily == .unknown`, docs/corenfc.md "MIFARE Classic"). The reader
/// does the Crypto1 part (PC/SC Load Keys and General Authenticate, a PN53x's MIFARE
/// authentication). An NDEF session reads and writes the card's NDEF like any other tag; these
/// calls are for the rest of its memory.
///
///     try await tag.authenticateMiFareClassicSector(1, key: Data([0xD3, 0xF7, 0xD3, 0xF7, 0xD3, 0xF7]))
///     let block = try await tag.readMiFareClassicBlock(4)
extension NFCMiFareTag {
    /// The card's layout: 5 sectors (Mini), 16 (1K) or 40 (4K); nil unless this is a MIFARE Classic.
    public var miFareClassicSectorCount: Int? { classicLayout?.sectorCount }

    /// The blocks of `sector`: 4 (16 in a 4K's sectors 32–39), the last its trailer; nil for a
    /// sector beyond the card or a tag that is not a MIFARE Classic.
    public func miFareClassicBlocks(inSector sector: Int) -> Range<Int>? {
        guard let layout = classicLayout, (0 ..< layout.sectorCount).contains(sector) else { return nil }
        let first = layout.firstBlock(ofSector: sector)
        return first ..< first + layout.blocks(inSector: sector)
    }

    /// Authenticates `sector` with a 6-byte key as key A (or key B). It stays authenticated for
    /// block reads and writes until another sector is.
    /// - Throws: `NFCReaderError` — `.readerErrorUnsupportedFeature` (1) for a tag that is not a
    ///   MIFARE Classic or a reader without MIFARE authentication; `.readerTransceiveErrorTagResponseError`
    ///   (102) when the card refuses the key (it halts: the next call re-activates it).
    public func authenticateMiFareClassicSector(_ sector: Int, key: Data, useKeyB: Bool = false) async throws {
        try await classicOperation { try $0.authenticate(sector: sector, key: [UInt8](key), keyB: useKeyB) }
    }

    /// One 16-byte block of the sector authenticated last.
    /// - Throws: `NFCReaderError` (102 when the access bits deny it or the sector is not authenticated).
    public func readMiFareClassicBlock(_ block: Int) async throws -> Data {
        Data(try await classicOperation { try $0.readBlock(block) })
    }

    /// Writes one 16-byte block of the sector authenticated last. A sector trailer is written as
    /// given: its keys and access bits decide who may use the sector afterwards.
    /// - Throws: `NFCReaderError` (102 when the access bits deny it).
    public func writeMiFareClassicBlock(_ block: Int, data: Data) async throws {
        try await classicOperation(kind: .write) { try $0.writeBlock(block, [UInt8](data)) }
    }

    private var classicLayout: MifareClassicLayout? {
        guard let tag = self as? MiFareSessionTag, tag.detectedTag.technology == .mifareClassic else { return nil }
        return MifareClassicLayout(sak: tag.detectedTag.sak ?? 0) ?? MifareClassicLayout(atr: tag.detectedTag.atr)
    }

    private func classicOperation<T: Sendable>(kind: TagOperationKind = .command,
                                               _ body: @escaping @Sendable (MifareClassicTag) throws -> T) async throws -> T {
        guard let tag = self as? MiFareSessionTag, tag.detectedTag.technology == .mifareClassic else {
            throw NFCReaderError(.readerErrorUnsupportedFeature, message: "not a MIFARE Classic card")
        }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            tag.engine.perform(tag, kind: kind, { connection -> T in
                guard let classic = try connection.ndef() as? MifareClassicTag else {
                    throw NFCReaderError(.readerErrorUnsupportedFeature, message: "the reader offers no MIFARE Classic authentication")
                }
                return try body(classic)
            }, completion: { result in
                continuation.resume(with: result.mapError { $0 as any Error })
            })
        }
    }
}
