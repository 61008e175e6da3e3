// Fuzz target `atr`: ATR and ATS parsing and the PC/SC contactless classification.
// fuzz-modules: NFCTags
// fuzz-max-len: 64
//
// Input: byte 0 bit 0 picks ATR (0) or ATS (1); the rest is parsed as one.
//
// A finding (trap) is: any error other than ATRError; a parsed ATR whose fields disagree with
// its bytes (T0's K, the bytes kept); an ISO 14443-4 classification that the builder
// `ATR.iso14443_4(historicalBytes:)` does not reproduce byte for byte; a storage card the
// builder does not classify back; an ATS whose historical bytes, put into a PC/SC ATR, do not
// classify back as that ISO 14443-4 card.
import NDEF
import NFCTags

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzATR(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = input.byte() ?? 0
    let bytes = input.rest()
    if selector & 1 == 0 { checkATR(bytes) } else { checkATS(bytes) }
    return 0
}

private func checkATR(_ bytes: [UInt8]) {
    guard let atr = expecting(ATRError.self, "ATR(bytes:)", { try ATR(bytes: bytes) }) else { return }
    guard atr.bytes == bytes, atr.description == bytes.hexString(separator: " ") else { finding("ATR does not keep its bytes") }
    guard bytes.count >= 2, atr.historicalBytes.count == Int(bytes[1] & 0x0F) else {
        finding("ATR has \(atr.historicalBytes.count) historical bytes, T0 says \(bytes.count >= 2 ? Int(bytes[1] & 0x0F) : -1)")
    }
    guard !atr.protocols.isEmpty, !atr.protocols.contains(15) else { finding("ATR protocols \(atr.protocols)") }
    switch atr.contactless {
    case let .iso14443_4(historical):
        guard let rebuilt = expecting(ATRError.self, "ATR.iso14443_4", { try ATR.iso14443_4(historicalBytes: historical) }),
              rebuilt == atr else {
            finding("ISO 14443-4 ATR not rebuilt by ATR.iso14443_4: \(atr)")
        }
    case let .storageCard(standard, name):
        guard StorageCardName(code: name.code) == name else { finding("storage card name \(name) does not survive its code") }
        let rebuilt = ATR.storageCard(standard: standard, name: name)
        guard rebuilt.contactless == .storageCard(standard: standard, name: name) else {
            finding("ATR.storageCard(\(standard), \(name)) classifies as \(rebuilt.contactless)")
        }
    case .other:
        break
    }
}

private func checkATS(_ bytes: [UInt8]) {
    guard let ats = expecting(ATRError.self, "ATS(bytes:)", { try ATS(bytes: bytes) }) else { return }
    guard ats.bytes == bytes else { finding("ATS does not keep its bytes") }
    let interface = [ats.ta1, ats.tb1, ats.tc1].compactMap { $0 }.count
    let expected = bytes.count - (ats.formatByte == nil ? 1 : 2) - interface
    guard ats.historicalBytes.count == expected else {
        finding("ATS has \(ats.historicalBytes.count) historical bytes, expected \(expected)")
    }
    // What a PC/SC reader does with an ATS: put its historical bytes into a 3B 8n 80 01 ATR.
    let historical = ats.historicalBytes
    guard historical.count <= 15 else { return }
    guard let atr = expecting(ATRError.self, "ATR.iso14443_4", { try ATR.iso14443_4(historicalBytes: historical) }) else {
        finding("ATR.iso14443_4 refused \(historical.count) historical bytes")
    }
    switch atr.contactless {
    case .iso14443_4(historical):
        break
    case .storageCard where historical.starts(with: [0x80, 0x4F]):
        // The PC/SC storage-card pattern itself: the ATR cannot tell the two apart.
        break
    default:
        finding("ATR from ATS historical bytes \(historical.hexString(separator: " ")) classifies as \(atr.contactless)")
    }
}
