import NDEF

extension MACAddress {
    /// Parses a MAC as written on Zebra tags and by people: 12 hex digits in any case
    /// (`cc78ab3ebae0`, the tag form), or six 2-digit groups joined by one separator used
    /// throughout, `:` or `-` (`CC:78:AB:3E:BA:E0`, `cc-78-ab-3e-ba-e0`).
    /// Returns nil for anything else: 11 or 13 digits, spaces, mixed separators, non-hex.
    public init?(string: some StringProtocol) {
        let text = Array(string.utf8)
        var digits: [UInt8]
        switch text.count {
        case 12:
            digits = text
        case 17:
            let separator = text[2]
            guard separator == UInt8(ascii: ":") || separator == UInt8(ascii: "-") else { return nil }
            digits = []
            for (i, c) in text.enumerated() {
                if i % 3 == 2 {
                    guard c == separator else { return nil }
                } else {
                    digits.append(c)
                }
            }
        default:
            return nil
        }
        // 12 characters make 6 bytes only when every one is a hex digit.
        guard let bytes = [UInt8](hex: String(decoding: digits, as: UTF8.self)), bytes.count == 6 else { return nil }
        self.init(bytes: bytes)
    }
}
