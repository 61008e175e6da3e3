import NDEF
import NFCTags
import TagEmulation

/// The built-in virtual reader and tags `nfctap demo` uses.
package enum DemoTags {
    package static let readerName = "nfctap Virtual Reader (ACR122U)"

    package static let url = "https://nfctap.dev/demo"
    package static let urlTagUID: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0x80]

    package static let text = "Hello from nfctap"
    package static let textLanguage = "en"
    package static let textTagUID: [UInt8] = [0x04, 0x53, 0x7A, 0x2A, 0x9C, 0x61, 0x80]

    /// The serial on the ZQ320 preset's tag (`s=` in its URL).
    package static let zebraSerial = "XXZFJ170700336"
    package static let zebraTagUID: [UInt8] = VirtualType2Tag.defaultUID

    /// The second reader, for the family the ACR122U has no radio for.
    package static let vicinityReaderName = "nfctap Virtual Reader (OMNIKEY 5022)"

    package static let classicURL = "https://nfctap.dev/classic"
    package static let vicinityURL = "https://nfctap.dev/iso15693"

    package static let writtenURL = "https://nfctap.dev/written"
    package static let blankTagUID: [UInt8] = [0x04, 0x1E, 0x77, 0x02, 0x5B, 0x3C, 0x80]

    /// An NTAG213 holding one URI record.
    /// - Throws: only if the built-in values stopped fitting the tag (a programming error).
    package static func urlTag() throws -> VirtualType2Tag {
        try VirtualType2Tag(product: .ntag213, uid: urlTagUID, ndef: NDEFMessage(records: [.uri(url)]).encoded())
    }

    /// A Type 4 tag (mapping 2.0) holding one text record.
    package static func textTag() throws -> VirtualType4Tag {
        VirtualType4Tag(version: .v2, ndef: try NDEFMessage(records: [.text(text, language: textLanguage)]).encoded(),
                        uid: textTagUID)
    }

    /// A MIFARE Classic 1K formatted for NDEF (NXP AN1305: the MAD, the NFC Forum keys) holding one URI record.
    package static func classicTag() throws -> VirtualMifareClassic {
        .ndefFormatted(.classic1K, message: try NDEFMessage(records: [.uri(classicURL)]).encoded())
    }

    /// An ICODE SLIX2 (ISO 15693, Type 5) holding one URI record.
    package static func vicinityTag() throws -> VirtualISO15693Tag {
        .formatted(.icodeSLIX2, uid: VirtualISO15693Tag.exampleUID(.icodeSLIX2), message: try NDEFMessage(records: [.uri(vicinityURL)]).encoded())
    }

    package static func zebraTag() -> VirtualType2Tag { .zebraZQ320(uid: zebraTagUID) }

    package static func blankTag() -> VirtualType2Tag { .blankNTAG215(uid: blankTagUID) }
}
