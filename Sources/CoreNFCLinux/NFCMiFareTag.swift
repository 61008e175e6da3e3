import Foundation

/// Core NFC's `NFCMiFareFamily`, raw values included.
public enum NFCMiFareFamily: UInt, Sendable {
    case unknown = 1
    case ultralight = 2
    case plus = 3
    case desfire = 4
}

/// Core NFC's `NFCMiFareTag`. An NTAG / Ultralight (NFC Forum Type 2) tag is family `.ultralight`.
public protocol NFCMiFareTag: __NFCTag, NFCNDEFTag {
    var mifareFamily: NFCMiFareFamily { get }
    var identifier: Data { get }
    var historicalBytes: Data? { get }
    /// Sends a native command (without CRC) and hands back the reply as iOS shapes it: READ `30 pp`
    /// → 16 bytes, FAST_READ `3A s e` → 4·(e−s+1) bytes, WRITE `A2 pp d0 d1 d2 d3` → the 4-bit
    /// ACK as one byte `0A`, GET_VERSION `60` → 8 bytes. A NAK fails with
    /// `.readerTransceiveErrorTagResponseError` (102). On Linux the reader decides what passes:
    /// anything else fails with `.readerErrorUnsupportedFeature`.
    @preconcurrency func sendMiFareCommand(commandPacket: Data, completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void)
    /// ISO 7816 APDUs to MIFARE DESFire/Plus cards; Type 2 tags answer `.readerErrorUnsupportedFeature`.
    @preconcurrency func sendMiFareISO7816Command(_ apdu: NFCISO7816APDU, completionHandler: @escaping @Sendable (Data, UInt8, UInt8, (any Error)?) -> Void)
}

extension NFCMiFareTag {
    /// iOS 14's form: the reply, or the error.
    @preconcurrency public func sendMiFareCommand(commandPacket: Data, resultHandler: @escaping @Sendable (Result<Data, any Error>) -> Void) {
        sendMiFareCommand(commandPacket: commandPacket) { data, error in
            if let error { resultHandler(.failure(error)) } else { resultHandler(.success(data)) }
        }
    }

    /// iOS 14's form: the reply as an `NFCISO7816ResponseAPDU`, or the error.
    @preconcurrency public func sendMiFareISO7816Command(_ apdu: NFCISO7816APDU,
                                         resultHandler: @escaping @Sendable (Result<NFCISO7816ResponseAPDU, any Error>) -> Void) {
        sendMiFareISO7816Command(apdu) { data, sw1, sw2, error in
            if let error {
                resultHandler(.failure(error))
            } else {
                resultHandler(.success(NFCISO7816ResponseAPDU(payload: data, statusWord1: sw1, statusWord2: sw2)))
            }
        }
    }

    public func sendMiFareCommand(commandPacket: Data) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            sendMiFareCommand(commandPacket: commandPacket) { data, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: data) }
            }
        }
    }

    public func sendMiFareISO7816Command(_ apdu: NFCISO7816APDU) async throws -> (Data, UInt8, UInt8) {
        try await withCheckedThrowingContinuation { continuation in
            sendMiFareISO7816Command(apdu) { data, sw1, sw2, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: (data, sw1, sw2)) }
            }
        }
    }
}
