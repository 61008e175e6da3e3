/// The flag bits of an NDEF record header byte (NFC Forum NDEF 1.0 §3.2):
/// `MB ME CF SR IL TNF(3)`.
enum RecordHeader {
    static let messageBegin: UInt8 = 0x80
    static let messageEnd: UInt8 = 0x40
    static let chunk: UInt8 = 0x20
    static let shortRecord: UInt8 = 0x10
    static let idLengthPresent: UInt8 = 0x08
    static let tnfMask: UInt8 = 0x07
}

/// One record exactly as framed on the wire, before chunks are joined.
struct RawRecord {
    var offset: Int
    var header: UInt8
    var tnfValue: UInt8
    var type: ArraySlice<UInt8>
    var id: ArraySlice<UInt8>
    var payload: ArraySlice<UInt8>

    var messageBegin: Bool { header & RecordHeader.messageBegin != 0 }
    var messageEnd: Bool { header & RecordHeader.messageEnd != 0 }
    var chunked: Bool { header & RecordHeader.chunk != 0 }
    var hasIDLength: Bool { header & RecordHeader.idLengthPresent != 0 }
}
