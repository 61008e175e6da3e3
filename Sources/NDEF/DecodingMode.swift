/// How strictly the decoder applies NFC Forum NDEF 1.0 and the record type definitions.
///
/// - `strict`: every breach of the specifications is an error (the default for the codec).
/// - `relaxed`: what real tags need (use it for bytes read from a tag). Differences from strict:
///   * the first record may lack MB, a later record may carry MB (ignored);
///   * the last record may lack ME: the message ends with the data;
///   * bytes after the record with ME are ignored (tags pad their memory);
///   * TNF 0 with type/id/payload, TNF 1–4 with an empty type and TNF 5 with a type are kept as
///     they are (they parse to `.unknown`) instead of failing;
///   * in payloads: an unknown URI identifier code (0x24 and up) means "no prefix"; invalid UTF-8 or
///     UTF-16 is decoded with U+FFFD replacement characters; the Text reserved bit is ignored;
///     a zero-length Text language is accepted; in a Smart Poster extra URI records and malformed
///     `act`/`s` records are kept in `otherRecords` instead of failing.
///
/// Both modes reject what cannot be decoded at all: truncated records, lengths past the end of the
/// data, TNF 7, chunk sequences that break the rules, exceeded `NDEFLimits`.
public enum DecodingMode: Sendable, Hashable {
    case strict
    case relaxed
}
