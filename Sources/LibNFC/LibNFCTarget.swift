/// A target as libnfc reports it: an ISO 14443A tag after anticollision (`nfc_iso14443a_info`),
/// or a FeliCa card after Polling (`nfc_felica_info`: `feliCa` set, `uid` = IDm, no ATQA/SAK).
public struct LibNFCTarget: Hashable, Sendable {
    /// ATQA / SENS_RES as the PN53x reports it (`00 44` for NTAG / Ultralight).
    public var atqa: [UInt8]
    /// SAK / SEL_RES (`00` Type 2, bit `20` ISO 14443-4).
    public var sak: UInt8
    /// 4, 7 or 10 byte UID.
    public var uid: [UInt8]
    /// ATS without its length byte TL (libnfc strips it); empty when the tag sent none.
    public var ats: [UInt8]
    /// The FeliCa Polling answer, for a FeliCa target.
    public var feliCa: LibNFCFeliCaInfo?

    public init(atqa: [UInt8], sak: UInt8, uid: [UInt8], ats: [UInt8] = []) {
        self.atqa = atqa
        self.sak = sak
        self.uid = uid
        self.ats = ats
    }

    /// A FeliCa target (`nfc_felica_info`).
    public init(feliCa: LibNFCFeliCaInfo) {
        self.init(atqa: [], sak: 0, uid: feliCa.idm)
        self.feliCa = feliCa
    }

    /// SAK bit 0x20: the tag speaks ISO 14443-4 (ISO-DEP).
    public var isISODEP: Bool { feliCa == nil && sak & 0x20 != 0 }
}

/// libnfc's `nfc_felica_info`: IDm (NFCID2), PMm (PAD), system code when the card sent one.
public struct LibNFCFeliCaInfo: Hashable, Sendable {
    public var idm: [UInt8]
    public var pmm: [UInt8]
    public var systemCode: [UInt8]
    /// 212 or 424 kbps.
    public var kbps: Int

    public init(idm: [UInt8], pmm: [UInt8], systemCode: [UInt8], kbps: Int) {
        self.idm = idm
        self.pmm = pmm
        self.systemCode = systemCode
        self.kbps = kbps
    }
}
