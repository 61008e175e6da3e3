import NFCTags

extension VirtualType2Tag {
    /// The UID the presets use unless told otherwise (NXP manufacturer byte 04).
    public static let defaultUID: [UInt8] = [0x04, 0x5A, 0x2C, 0x91, 0x6E, 0x3F, 0x80]

    /// The Zebra ZQ320 printer's NTAG213 as shipped: one short URI record
    /// (`D1 01 len 55 01 "zebra.com/apps/r/nfc?…"`, prefix code 01 = `http://www.`).
    /// The framing is written by hand here; the NDEF codec lives in another module.
    public static func zebraZQ320(uid: [UInt8] = defaultUID) -> VirtualType2Tag {
        let url = "zebra.com/apps/r/nfc?mE=000000000000&mW=&mB=cc78ab3ebae0&c=ZQ320-A0E02T0-00&s=XXZFJ170700336&v=0"
        let payload: [UInt8] = [0x01] + Array(url.utf8)
        // MB ME SR, TNF well-known | type length 1 | payload length | type "U"
        let record: [UInt8] = [0xD1, 0x01, UInt8(payload.count), 0x55] + payload
        return preset(.ntag213, uid: uid, ndef: record)
    }

    /// NTAG213 as NXP ships it: `01 03 A0 0C 34 03 00 FE`.
    public static func blankNTAG213(uid: [UInt8] = defaultUID) -> VirtualType2Tag { preset(.ntag213, uid: uid, ndef: nil) }
    /// NTAG215 as NXP ships it: `03 00 FE`.
    public static func blankNTAG215(uid: [UInt8] = defaultUID) -> VirtualType2Tag { preset(.ntag215, uid: uid, ndef: nil) }
    /// NTAG216 as NXP ships it: `03 00 FE`.
    public static func blankNTAG216(uid: [UInt8] = defaultUID) -> VirtualType2Tag { preset(.ntag216, uid: uid, ndef: nil) }

    /// Builds a preset. The inputs are fixed and fit (the preset tests check the images), so the
    /// fallbacks below only exist to keep the API non-throwing without a trap.
    private static func preset(_ product: Type2Product, uid: [UInt8], ndef: [UInt8]?) -> VirtualType2Tag {
        let uid = uid.count == 7 ? uid : defaultUID
        let model = Type2ChipModel(product) ?? .ntag213
        let tag = VirtualType2Tag(model: model, memory: model.factoryMemory(uid: uid))
        if let ndef { try? tag.storeInitialNDEF(ndef) }
        return tag
    }
}
