import Foundation

/// Core NFC's `NFCISO7816ResponseAPDU` (iOS 14): a card's reply, split into data and status word.
public struct NFCISO7816ResponseAPDU: Hashable, Sendable {
    /// The reply's data field (empty when the reply was only a status word).
    public var payload: Data?
    /// SW1.
    public var statusWord1: UInt8
    /// SW2.
    public var statusWord2: UInt8

    /// Splits a raw reply: the last two bytes are SW1 SW2, the rest is the payload. A reply of
    /// fewer than two bytes has no status word: the payload is nil and SW1 SW2 are 00 00 (the
    /// tag sessions never hand one out: they answer `.readerTransceiveErrorTagResponseError`).
    public init(data: Data) {
        let bytes = [UInt8](data)
        guard bytes.count >= 2 else {
            self.payload = nil
            self.statusWord1 = 0
            self.statusWord2 = 0
            return
        }
        self.payload = Data(bytes.dropLast(2))
        self.statusWord1 = bytes[bytes.count - 2]
        self.statusWord2 = bytes[bytes.count - 1]
    }

    /// Linux: a reply from its parts (what the completion-handler form hands out).
    public init(payload: Data?, statusWord1: UInt8, statusWord2: UInt8) {
        self.payload = payload
        self.statusWord1 = statusWord1
        self.statusWord2 = statusWord2
    }
}
