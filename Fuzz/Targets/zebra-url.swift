// Fuzz target `zebra-url`: Zebra tag URL decoding from text, from a URI record payload, and from
// an NDEF message.
// fuzz-modules: ZebraPrinter
// fuzz-max-len: 2048
//
// Input: byte 0 picks the view: 0 the rest as a URI (UTF-8, invalid bytes → U+FFFD), 1 the rest
// as a URI record payload, 2 the rest as an NDEF message (relaxed); 3 the rest as a MAC address.
//
// A finding (trap) is: any error other than ZebraTagError (NDEFError for the message decode);
// an identity accepted from a URI that `isZebraURI` rejects; a serial that is empty or not
// visible ASCII; a URI record payload decoded differently by `identity(fromURIPayload:)` and
// by `identity(from:)` on a message holding that record; a MAC whose text does not parse back.
import NDEF
import ZebraPrinter

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzZebraURL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = input.byte() ?? 0
    let bytes = input.rest()
    switch selector & 0x03 {
    case 0: checkURI(String(decoding: bytes, as: UTF8.self))
    case 1: checkPayload(bytes)
    case 2: checkMessage(bytes)
    default: checkMAC(String(decoding: bytes, as: UTF8.self))
    }
    return 0
}

private func checkIdentity(_ identity: PrinterIdentity) {
    let serial = identity.serial.utf8
    guard !serial.isEmpty, serial.count <= ZebraTag.maxFieldLength, serial.allSatisfy({ (0x21...0x7E).contains($0) }) else {
        finding("accepted serial \(identity.serial.debugDescription)")
    }
    for mac in [identity.bluetooth, identity.bluetoothLE, identity.wifi, identity.ethernet].compactMap({ $0 }) {
        guard mac.bytes.count == 6, !mac.isZero else { finding("accepted MAC \(mac)") }
    }
}

private func checkURI(_ uri: String) {
    guard let identity = expecting(ZebraTagError.self, "identity(fromURI:)", { try ZebraTag.identity(fromURI: uri) }) else { return }
    guard ZebraTag.isZebraURI(uri) else { finding("identity from a URI isZebraURI rejects: \(uri.debugDescription)") }
    checkIdentity(identity)
}

private func checkPayload(_ payload: [UInt8]) {
    let direct = expecting(ZebraTagError.self, "identity(fromURIPayload:)", { try ZebraTag.identity(fromURIPayload: payload) })
    if let direct { checkIdentity(direct) }
    // The same payload in a URI record of an NDEF message: identity(from:) must agree when the
    // payload alone decodes (it may decode more: it expands every URI prefix code).
    let message = NDEFMessage(records: [NDEFRecord(tnf: .wellKnown, type: URIRecord.type, payload: payload)])
    let viaMessage = expecting(ZebraTagError.self, "identity(from: NDEFMessage)", { try ZebraTag.identity(from: message) })
    if let direct, viaMessage != .some(direct) {
        finding("payload \(payload.hexString(separator: " ")): identity(fromURIPayload:) \(direct), identity(from:) \(String(describing: viaMessage))")
    }
}

private func checkMessage(_ bytes: [UInt8]) {
    let message: NDEFMessage
    do {
        message = try NDEFMessage(bytes: bytes, mode: .relaxed)
    } catch {
        return  // an NDEFError, the only error the codec throws
    }
    if let identity = expecting(ZebraTagError.self, "identity(from: NDEFMessage)", { try ZebraTag.identity(from: message) }) ?? nil {
        checkIdentity(identity)
    }
}

private func checkMAC(_ text: String) {
    guard let mac = MACAddress(string: text) else { return }
    guard MACAddress(string: mac.description) == mac else { finding("MAC \(mac) does not parse back") }
}
