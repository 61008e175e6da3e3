/// An ISO 14443A target as libnfc reports it after anticollision (`nfc_iso14443a_info`).
public struct LibNFCTarget: Hashable, Sendable {
    /// ATQA / SENS_RES as the PN53x reports it (`00 44` for NTAG / Ultralight).
    public var atqa: [UInt8]
    /// SAK / SEL_RES (`00` Type 2, bit `20` ISO 14443-4).
    public var sak: UInt8
    /// 4, 7 or 10 byte UID.
    public var uid: [UInt8]
    /// ATS without its length byte TL (libnfc strips it); empty when the tag sent none.
    public var ats: [UInt8]

    public init(atqa: [UInt8], sak: UInt8, uid: [UInt8], ats: [UInt8] = []) {
        self.atqa = atqa
        self.sak = sak
        self.uid = uid
        self.ats = ats
    }

    /// SAK bit 0x20: the tag speaks ISO 14443-4 (ISO-DEP).
    public var isISODEP: Bool { sak & 0x20 != 0 }
}
