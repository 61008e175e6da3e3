import Foundation

/// Core NFC's `NFCISO7816Tag`: an ISO-DEP (ISO 14443-4) card that takes ISO 7816 APDUs.
public protocol NFCISO7816Tag: __NFCTag, NFCNDEFTag {
    /// The AID (hex, upper case) the session selected on connect from
    /// `NFCSessionConfiguration.iso7816SelectIdentifiers`; empty when none was selected.
    var initialSelectedAID: String { get }
    /// The UID.
    var identifier: Data { get }
    /// Historical bytes from the ATS; nil when the card has none.
    var historicalBytes: Data? { get }
    /// ISO 14443-4 type B application data; nil for type A (all cards these readers see).
    var applicationData: Data? { get }
    var proprietaryApplicationDataCoding: Bool { get }
    /// Sends one APDU; the reply's data and status word come back, status words other than 90 00
    /// included (they are not errors here).
    @preconcurrency func sendCommand(apdu: NFCISO7816APDU, completionHandler: @escaping @Sendable (Data, UInt8, UInt8, (any Error)?) -> Void)
}

extension NFCISO7816Tag {
    /// iOS 14's form: the reply as an `NFCISO7816ResponseAPDU`, or the error.
    @preconcurrency public func sendCommand(apdu: NFCISO7816APDU, resultHandler: @escaping @Sendable (Result<NFCISO7816ResponseAPDU, any Error>) -> Void) {
        sendCommand(apdu: apdu) { data, sw1, sw2, error in
            if let error {
                resultHandler(.failure(error))
            } else {
                resultHandler(.success(NFCISO7816ResponseAPDU(payload: data, statusWord1: sw1, statusWord2: sw2)))
            }
        }
    }

    /// The reply's data, SW1 and SW2.
    public func sendCommand(apdu: NFCISO7816APDU) async throws -> (Data, UInt8, UInt8) {
        try await withCheckedThrowingContinuation { continuation in
            sendCommand(apdu: apdu) { data, sw1, sw2, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: (data, sw1, sw2)) }
            }
        }
    }
}
