import NDEF

/// Core NFC's `NFCTypeNameFormat` (NDEF TNF field), with Apple's raw values.
public enum NFCTypeNameFormat: UInt8, Sendable {
    case empty = 0
    case nfcWellKnown = 1
    case media = 2
    case absoluteURI = 3
    case nfcExternal = 4
    case unknown = 5
    case unchanged = 6
}

extension NFCTypeNameFormat {
    /// The codec's TNF with the same value.
    package init(_ tnf: TypeNameFormat) {
        self = NFCTypeNameFormat(rawValue: tnf.rawValue) ?? .unknown  // same raw values 0...6: never nil
    }

    /// The codec's TNF with the same value.
    package var ndef: TypeNameFormat {
        TypeNameFormat(rawValue: rawValue) ?? .unknown  // same raw values 0...6: never nil
    }
}
