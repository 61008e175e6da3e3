/// What Polling tells about a FeliCa card (docs/tags-and-readers.md §9.1): reported with the tag
/// and used to address it.
public struct FeliCaIdentity: Hashable, Sendable {
    public var idm: [UInt8]
    public var pmm: [UInt8]
    /// The system the card was selected under (from request code 01); empty when unknown.
    public var systemCode: [UInt8]

    public init(idm: [UInt8], pmm: [UInt8], systemCode: [UInt8]) {
        self.idm = idm
        self.pmm = pmm
        self.systemCode = systemCode
    }

    public var product: FeliCaProduct { FeliCaProduct(pmm: pmm) }
}
