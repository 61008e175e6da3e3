import NFCTags

extension TagConnection {
    /// The NDEF operations for the tag on this connection: `Type2Tag` over the Type 2 link,
    /// `Type4Tag` over the APDU channel. One place decides, for the CLI and the sessions alike.
    /// - Throws: `TagError.unsupported` for tags that are neither (MIFARE Classic, FeliCa…).
    public func ndefOperations() throws -> NDEFTagOperations {
        if let link = type2 { return Type2Tag(link: link) }
        if let apdu { return Type4Tag(transceiver: apdu) }
        throw TagError.unsupported("NDEF on \(tag.technology.rawValue) tags")
    }
}
