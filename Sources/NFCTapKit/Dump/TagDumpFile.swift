import Foundation
import NFCTags

/// A dump file in any format `emulate --dump` reads (docs/dump.md), told apart by its content.
package enum TagDumpFile {
    /// Flipper's `.nfc` text,
    /// nfctap's JSON, Proxmark's JSON (`FileType` `mfcard`/`mfc…`), or for MIFARE Classic a raw
    /// `.mfd`/`.bin` image or `.eml`/`.mct` text (`MifareClassicDumpFiles`).
    /// - Throws: `TagDumpFileError`.
    package static func load(_ data: Data) throws(TagDumpFileError) -> TagDump {
        guard data.count <= FlipperNFCFile.maxFileSize else { throw TagDumpFileError("the file is larger than \(FlipperNFCFile.maxFileSize) bytes") }
        let isText = data.allSatisfy { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || (0x20 ... 0x7E).contains($0) || $0 >= 0x80 }
        if !isText || String(validating: data, as: UTF8.self) == nil {
            if let raw = MifareClassicDumpFiles.raw([UInt8](data)) { return raw }
            throw TagDumpFileError("the file is neither text nor a raw MIFARE Classic image (320, 1024 or 4096 bytes)")
        }
        let text = String(decoding: data, as: UTF8.self)
        let start = text.drop { $0.isWhitespace }
        if start.hasPrefix("{") {
            if let proxmark = try proxmark(data) { return proxmark }
            return try TagDumpJSON.parse(data)
        }
        if start.hasPrefix("Filetype:") { return try FlipperNFCFile.parse(text) }
        do {
            return try MifareClassicDumpFiles.text(text)
        } catch {
            // A raw image whose bytes all happen to be printable.
            if let raw = MifareClassicDumpFiles.raw([UInt8](data)) { return raw }
            throw error
        }
    }

    /// Proxmark3's JSON dump of a MIFARE Classic (`hf mf dump`): `Card` (`UID`, `ATQA` LSB first,
    /// `SAK`) and `blocks` by number. nil for JSON that is not one.
    private static func proxmark(_ data: Data) throws(TagDumpFileError) -> TagDump? {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let type = root["FileType"] as? String, type == "mfcard" || type.hasPrefix("mfc") else { return nil }
        guard let blocks = root["blocks"] as? [String: Any],
              let layout = MifareClassicLayout.allCases.first(where: { $0.blockCount == blocks.count }) else {
            throw TagDumpFileError("a Proxmark dump whose \"blocks\" are not the 20, 64 or 256 of a MIFARE Classic")
        }
        var image: [UInt8] = []
        for i in 0 ..< layout.blockCount {
            guard let text = blocks[String(i)] as? String, let block = [UInt8](hex: text), block.count == 16 else {
                throw TagDumpFileError("Proxmark block \(i) is not 16 bytes of hex")
            }
            image += block
        }
        guard var dump = MifareClassicDumpFiles.raw(image) else { return nil }
        if let card = root["Card"] as? [String: Any] {
            if let uid = (card["UID"] as? String).flatMap({ [UInt8](hex: $0) }), (4 ... 10).contains(uid.count) { dump.uid = uid }
            if let atqa = (card["ATQA"] as? String).flatMap({ [UInt8](hex: $0) }), atqa.count == 2 { dump.atqa = atqa.reversed() }
            if let sak = (card["SAK"] as? String).flatMap({ [UInt8](hex: $0) }), sak.count == 1 { dump.sak = sak[0] }
        }
        return dump
    }
}
