/// How a PC/SC contactless reader passes Type 2 commands (docs/tags-and-readers.md §3),
/// derived from its reader name.
public struct PCSCReaderProfile: Sendable, Hashable, CustomStringConvertible {
    public enum Family: String, Sendable, Hashable, CaseIterable {
        /// ACS ACR122U (a PN532 behind CCID): READ BINARY of 16 bytes, direct transmit to the
        /// PN532 (`FF 00 00 00 Lc D4 …`) for FAST_READ and GET_VERSION, LED/buzzer pseudo-APDUs.
        case acr122u
        /// ACS ACR1252U / ACR1255U / ACR1222L: READ BINARY of 16 bytes, GET DATA for the ATS; no PN532
        /// direct transmit.
        case acr1252u
        /// Identiv (SCM) uTrust / SCL0xx: READ BINARY returns one page (4 bytes) whatever Le says.
        case identiv
        /// Any other PC/SC Part 3 reader (including vpcd's `Virtual PCD`): ask for 16, cope with fewer.
        case generic
    }

    public var family: Family

    public init(family: Family) {
        self.family = family
    }

    /// Picks the family from a PC/SC reader name such as `ACS ACR122U PICC Interface 00 00`.
    public init(readerName: String) {
        let name = readerName.lowercased()
        if name.contains("acr122") {
            family = .acr122u
        } else if ["acr1252", "acr1255", "acr1222", "acr1552"].contains(where: name.contains) {
            family = .acr1252u
        } else if ["identiv", "utrust", "scm microsystems", "scl01", "scl3"].contains(where: name.contains) {
            family = .identiv
        } else {
            family = .generic
        }
    }

    public static let acr122u = PCSCReaderProfile(family: .acr122u)
    public static let acr1252u = PCSCReaderProfile(family: .acr1252u)
    public static let identiv = PCSCReaderProfile(family: .identiv)
    public static let generic = PCSCReaderProfile(family: .generic)

    public var description: String { family.rawValue }

    /// Le of READ BINARY (`FF B0 00 pp Le`): 16, or 4 for Identiv (what it returns anyway).
    public var readBinaryLength: UInt8 { family == .identiv ? 0x04 : 0x10 }

    /// The PN532 behind the reader takes `FF 00 00 00 Lc D4 42 …` (InCommunicateThru).
    public var supportsDirectTransmit: Bool { family == .acr122u }

    /// Most bytes one FAST_READ may return: 240 (60 pages) through the ACR122U. The reply
    /// `D5 43 00 <data> 90 00` must fit a short APDU response (256 + SW) and the PN532's 262-byte
    /// frame (TFI, code, status, data): 240 leaves margin on both and is a whole number of pages.
    public var fastReadLimit: Int { supportsDirectTransmit ? 240 : 0 }

    /// ACR122U LED/buzzer pseudo-APDUs (`FF 00 40 …`, `FF 00 52 …`).
    public var supportsLEDAndBuzzer: Bool { family == .acr122u }

    /// `FF CA 01 00 00` returns the ATS (ACS readers); others return historical bytes or refuse.
    public var getDataP1ReturnsATS: Bool { family == .acr122u || family == .acr1252u }
}
