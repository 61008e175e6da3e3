import NDEF

/// A Bluetooth service or characteristic UUID, always held in its 128-bit form.
/// 16- and 32-bit short UUIDs sit on the Bluetooth Base UUID `0000xxxx-0000-1000-8000-00805F9B34FB`.
public struct BluetoothUUID: Hashable, Sendable, CustomStringConvertible {
    /// The 16 bytes, most significant first.
    public let bytes: [UInt8]

    private static let base: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00,
                                        0x80, 0x00, 0x00, 0x80, 0x5F, 0x9B, 0x34, 0xFB]

    /// A 16-bit UUID such as `0x180A` on the Bluetooth Base UUID.
    public init(short: UInt16) {
        var b = Self.base
        b[2] = UInt8(short >> 8)
        b[3] = UInt8(short & 0xFF)
        bytes = b
    }

    /// Parses `180A`, `0000180A` (short forms) or `38EB4A80-C570-11E3-9507-0002A5D5C51B`
    /// (any case, dashes at 8-4-4-4-12). Nil for anything else.
    public init?(string: some StringProtocol) {
        let text = Array(string.utf8)
        var digits: [UInt8] = []
        switch text.count {
        case 4, 8:
            digits = text
        case 36:
            for (i, c) in text.enumerated() {
                if i == 8 || i == 13 || i == 18 || i == 23 {
                    guard c == UInt8(ascii: "-") else { return nil }
                } else {
                    digits.append(c)
                }
            }
        default:
            return nil
        }
        // As many bytes as half the characters only when every one is a hex digit.
        guard let value = [UInt8](hex: String(decoding: digits, as: UTF8.self)), value.count * 2 == digits.count else { return nil }
        if value.count == 16 {
            bytes = value
        } else {
            var b = Self.base
            b.replaceSubrange((4 - value.count)..<4, with: value)
            bytes = b
        }
    }

    /// The 16-bit value when this UUID sits on the Base UUID with a 16-bit short form.
    public var short: UInt16? {
        guard bytes[0] == 0, bytes[1] == 0, Array(bytes[4...]) == Array(Self.base[4...]) else { return nil }
        return UInt16(bytes[2]) << 8 | UInt16(bytes[3])
    }

    /// Lower-case 8-4-4-4-12, the form BlueZ uses on D-Bus.
    public var description: String {
        let hex = bytes.map { [$0].hexString.lowercased() }
        return hex[0..<4].joined() + "-" + hex[4..<6].joined() + "-" + hex[6..<8].joined() + "-"
            + hex[8..<10].joined() + "-" + hex[10..<16].joined()
    }
}
