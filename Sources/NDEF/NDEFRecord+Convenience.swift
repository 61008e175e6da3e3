// Shorthands for the records people write most.

extension NDEFRecord {
    /// A URI record (`U`) with the longest matching prefix abbreviated.
    public static func uri(_ uri: String) -> NDEFRecord {
        URIRecord(uri: uri).record()
    }

    /// A Text record (`T`).
    /// - Throws: `.cannotEncode(.invalidLanguageCode)` unless `language` is 1–63 ASCII bytes.
    public static func text(_ text: String, language: String, encoding: TextRecord.Encoding = .utf8) throws(NDEFError) -> NDEFRecord {
        try TextRecord(text: text, language: language, encoding: encoding).record()
    }

    /// A media-type record (TNF 2). The type is not validated here; `MediaRecord.record()` does.
    public static func mime(_ mediaType: String, _ payload: [UInt8]) -> NDEFRecord {
        NDEFRecord(tnf: .media, type: Array(mediaType.utf8), payload: payload)
    }

    /// An external-type record (TNF 4) named `domain:type`.
    public static func external(_ name: String, _ payload: [UInt8]) -> NDEFRecord {
        NDEFRecord(tnf: .external, type: Array(name.utf8), payload: payload)
    }

    /// An Android Application Record for `packageName`.
    public static func androidApplication(_ packageName: String) -> NDEFRecord {
        AndroidApplicationRecord(packageName: packageName).record()
    }
}
