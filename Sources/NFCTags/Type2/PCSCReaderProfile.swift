/// How a PC/SC contactless reader passes Type 2 commands (docs/tags-and-readers.md §3), chosen by
/// reader identity: the firmware string where the reader has one to ask (`identify`), else its name.
///
/// Every byte sequence used per family is in `PseudoAPDUType2Link`, `PCSCTransparentSession` and
/// `ReaderFeedbackCommands`, each citing the manual section or public trace it comes from.
public struct PCSCReaderProfile: Sendable, Hashable, CustomStringConvertible {
    public enum Family: String, Sendable, Hashable, CaseIterable {
        /// ACS ACR122U and its PN532-based siblings (Touchatag, early units named
        /// "ACS ACR 38U-CCID"): READ BINARY of 16 bytes, direct transmit to the PN532
        /// (`FF 00 00 00 Lc D4 …`) for raw commands, LED/buzzer pseudo-APDUs (`FF 00 40`, `FF 00 52`).
        case acr122u
        /// ACS ACR1252U / ACR1255U / ACR1222L: READ BINARY of 16 bytes, GET DATA for the ATS, raw
        /// commands through the PC/SC Part 3 transparent exchange, LED and buzzer through
        /// SCardControl escape commands (`E0 00 00 28/29 …`).
        case acr1252u
        /// Identiv (SCM) uTrust / SCL0xx: READ BINARY returns one page (4 bytes) whatever Le says;
        /// raw commands through the transparent exchange.
        case identiv
        /// HID OMNIKEY 5022 / 5422: READ BINARY of 16 bytes, raw commands through the transparent exchange.
        case omnikey
        /// SpringCard couplers (Prox'N'Roll, CrazyWriter, H663/H512/E518 series): READ BINARY of
        /// 16 bytes, raw commands through the transparent exchange.
        case springcard
        /// Any other PC/SC Part 3 reader (including vpcd's `Virtual PCD`): ask for 16, cope with
        /// fewer; no raw commands.
        case generic
    }

    /// How a raw Type 2 frame (GET_VERSION, FAST_READ, READ_SIG, …) reaches the tag.
    public enum RawCommandPath: String, Sendable, Hashable {
        /// The reader cannot pass one: `readerErrorUnsupportedFeature`.
        case none
        /// PN532 InCommunicateThru in an ACR122U direct transmit, `FF 00 00 00 Lc D4 42 frame`
        /// (ACR122U API v2.04 §6.1 "Direct Transmit"; PN532 User Manual §7.3.9).
        case pn532DirectTransmit
        /// PC/SC 2.02 Part 3 Supplement §3.2.7 "Manage Session" / "Transparent Exchange":
        /// `FF C2 00 00 02 81 00` start, `FF C2 00 01 Lc 95 len frame`, `FF C2 00 00 02 82 00` end.
        case transparentExchange
    }

    /// How nfctap drives the reader's LED and buzzer.
    public enum FeedbackPath: String, Sendable, Hashable {
        case none
        /// ACR122U API v2.04 §6.2 "Bi-color LED and Buzzer Control" (`FF 00 40 …` through
        /// SCardTransmit) and §6.7 "Set buzzer output during card detection" (`FF 00 52 P2 00`).
        case acr122uPseudoAPDU
        /// ACR1252U / ACR1255U-J1 reference manuals, "LED Control" (`E0 00 00 29 01 status`) and
        /// "Buzzer Control" (`E0 00 00 28 01 duration`) through SCardControl(IOCTL_CCID_ESCAPE).
        case acsEscape
    }

    public var family: Family
    /// The reader refused its raw path once (a firmware without the transparent exchange, a reader
    /// named like an ACR122U that is not one): raw commands are off for it from then on.
    public var rawCommandsRefused = false

    public init(family: Family) {
        self.family = family
    }

    /// Picks the family from a PC/SC reader name such as `ACS ACR122U PICC Interface 00 00`.
    /// Early ACR122 and Touchatag units enumerate as "ACS ACR 38U-CCID" / "ACS ACR38U-CCID"
    /// (libnfc's acr122_pcsc driver lists both prefixes); by name they are taken as ACR122U, which
    /// `identify(readerName:firmware:)` confirms or corrects from the firmware string.
    public init(readerName: String) {
        let name = readerName.lowercased()
        if ["acr122", "acr 38u-ccid", "acr38u-ccid", "touchatag"].contains(where: name.contains) {
            family = .acr122u
        } else if ["acr1252", "acr1255", "acr1222", "acr1552"].contains(where: name.contains) {
            family = .acr1252u
        } else if ["identiv", "utrust", "scm microsystems", "scl01", "scl3"].contains(where: name.contains) {
            family = .identiv
        } else if name.contains("omnikey") && ["5022", "5422", "5122"].contains(where: name.contains) {
            family = .omnikey
        } else if name.contains("springcard") {
            family = .springcard
        } else {
            family = .generic
        }
    }

    /// The firmware question worth asking of a reader with this name: ACS readers answer
    /// `FF 00 48 00 00` (ACR122U API v2.04 §6.3 "Get firmware version of the reader"). nil for
    /// the others, so generic readers (and vpcd) pay no extra exchange.
    public static func firmwareQuery(readerName: String) -> [UInt8]? {
        let name = readerName.lowercased()
        return name.hasPrefix("acs ") || name.contains("acr") || name.contains("touchatag")
            ? [0xFF, 0x00, 0x48, 0x00, 0x00] : nil
    }

    /// The ASCII firmware string of an ACS reader: the whole reply, which carries no status word
    /// ("ACR122U215" in nfcpy issue 105's trace, "ACR122U216" in issue 200's). A reply ending in
    /// `90 00` is accepted too; anything else that is not printable ASCII (a bare status word) is nil.
    public static func firmwareString(_ reply: [UInt8]) -> String? {
        var bytes = reply
        if bytes.count > 2, bytes.suffix(2) == [0x90, 0x00] { bytes.removeLast(2) }
        guard bytes.count >= 4, bytes.allSatisfy({ (0x20 ... 0x7E).contains($0) }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reader identity: the firmware string decides when there is one ("ACR122U…" is the PN532
    /// reader whatever its name says; another ACS string falls back to the name, minus the ACR122U
    /// guess), else the name. `refused`: the reader answered the firmware question with a bare
    /// status word, which an ACR122U never does, so a name that suggests one is not believed.
    public static func identify(readerName: String, firmware: String?, refused: Bool = false) -> PCSCReaderProfile {
        let byName = PCSCReaderProfile(readerName: readerName)
        guard let firmware = firmware?.uppercased() else {
            return refused && byName.family == .acr122u ? .generic : byName
        }
        if firmware.hasPrefix("ACR122") { return .acr122u }
        if firmware.hasPrefix("ACR1252") || firmware.hasPrefix("ACR1255") || firmware.hasPrefix("ACR1222") { return .acr1252u }
        // An ACS reader that is not PN532-based: never the ACR122U direct transmit.
        return byName.family == .acr122u ? .generic : byName
    }

    public static let acr122u = PCSCReaderProfile(family: .acr122u)
    public static let acr1252u = PCSCReaderProfile(family: .acr1252u)
    public static let identiv = PCSCReaderProfile(family: .identiv)
    public static let omnikey = PCSCReaderProfile(family: .omnikey)
    public static let springcard = PCSCReaderProfile(family: .springcard)
    public static let generic = PCSCReaderProfile(family: .generic)

    public var description: String { family.rawValue }

    /// Le of READ BINARY (`FF B0 00 pp Le`): 16, or 4 for Identiv (what it returns anyway).
    public var readBinaryLength: UInt8 { family == .identiv ? 0x04 : 0x10 }

    public var rawCommandPath: RawCommandPath {
        guard !rawCommandsRefused else { return .none }
        switch family {
        case .acr122u: return .pn532DirectTransmit
        case .acr1252u, .identiv, .omnikey, .springcard: return .transparentExchange
        case .generic: return .none
        }
    }

    /// The PN532 behind the reader takes `FF 00 00 00 Lc D4 42 …` (InCommunicateThru).
    public var supportsDirectTransmit: Bool { rawCommandPath == .pn532DirectTransmit }

    /// The reader implements the PC/SC Part 3 transparent exchange (`FF C2`).
    public var supportsTransparentExchange: Bool { rawCommandPath == .transparentExchange }

    /// Most bytes one FAST_READ may return: 240 (60 pages). Through the ACR122U the reply
    /// `D5 43 00 <data> 90 00` must fit a short APDU response (256 + SW) and the PN532's 262-byte
    /// frame; through a transparent exchange `C0 03 00 90 00 … 97 81 F0 <data>` must fit 256 bytes.
    /// 240 leaves margin on both and is a whole number of pages.
    public var fastReadLimit: Int { rawCommandPath == .none ? 0 : Self.rawFastReadLimit }
    public static let rawFastReadLimit = 240

    public var feedbackPath: FeedbackPath {
        switch family {
        case .acr122u: return .acr122uPseudoAPDU
        case .acr1252u: return .acsEscape
        case .identiv, .omnikey, .springcard, .generic: return .none
        }
    }

    /// ACR122U LED/buzzer pseudo-APDUs (`FF 00 40 …`, `FF 00 52 …`).
    public var supportsLEDAndBuzzer: Bool { feedbackPath == .acr122uPseudoAPDU }

    /// `FF CA 01 00 00` returns the ATS (ACS readers); others return historical bytes or refuse.
    public var getDataP1ReturnsATS: Bool { family == .acr122u || family == .acr1252u }
}
