import NDEF

extension ZebraTag {
    /// The printer identity on a tag, or nil when the message holds no Zebra tag URL.
    ///
    /// Looks at URI records (TNF 1, type `U`) in order; the first whose scheme, host and path
    /// are Zebra's (``isZebraURI(_:)``) is decoded. Lookalike hosts are not Zebra tags (nil).
    /// - Throws: ``ZebraTagError`` when a Zebra URL is there but its query is unusable.
    public static func identity(from message: NDEFMessage) throws -> PrinterIdentity? {
        for record in message.records where record.tnf == .wellKnown && record.type == URIRecord.type {
            guard let uri = try? URIRecord(record: record, mode: .relaxed).uri, isZebraURI(uri) else { continue }
            return try identity(fromURI: uri)
        }
        return nil
    }
}
