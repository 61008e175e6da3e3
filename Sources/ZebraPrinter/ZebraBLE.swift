/// Zebra's Bluetooth Low Energy interface (docs/zebra.md §2): a "parser" service whose
/// "to printer" characteristic takes ZPL/SGD and whose "from printer" characteristic indicates
/// replies, plus the standard Device Information service.
public enum ZebraBLE {
    /// Parser service `38EB4A80-C570-11E3-9507-0002A5D5C51B`.
    public static let parserService = BluetoothUUID(string: "38EB4A80-C570-11E3-9507-0002A5D5C51B")!
    /// "To Printer Data" `…4A82…`: write commands here, with response, in ``chunks(_:mtu:)``.
    public static let toPrinterData = BluetoothUUID(string: "38EB4A82-C570-11E3-9507-0002A5D5C51B")!
    /// "From Printer Data" `…4A81…`: subscribe (indications); replies arrive here, split.
    public static let fromPrinterData = BluetoothUUID(string: "38EB4A81-C570-11E3-9507-0002A5D5C51B")!

    /// Device Information service `180A`.
    public static let deviceInformationService = BluetoothUUID(short: 0x180A)
    /// `2A24` Model Number String.
    public static let modelNumber = BluetoothUUID(short: 0x2A24)
    /// `2A25` Serial Number String.
    public static let serialNumber = BluetoothUUID(short: 0x2A25)
    /// `2A26` Firmware Revision String.
    public static let firmwareRevision = BluetoothUUID(short: 0x2A26)
    /// `2A27` Hardware Revision String.
    public static let hardwareRevision = BluetoothUUID(short: 0x2A27)
    /// `2A28` Software Revision String.
    public static let softwareRevision = BluetoothUUID(short: 0x2A28)
    /// `2A29` Manufacturer Name String.
    public static let manufacturerName = BluetoothUUID(short: 0x2A29)

    /// The ATT minimum (and default) MTU.
    public static let minimumMTU = 23
    /// The ATT maximum MTU.
    public static let maximumMTU = 517
    /// The MTU Zebra's SDK asks for.
    public static let preferredMTU = 515

    /// An attribute value holds at most 512 bytes (Core spec Vol 3 Part F §3.2.9), whatever the MTU.
    public static let maximumAttributeValue = 512

    /// Splits a write into ATT-sized pieces: `mtu - 3` bytes each (3 bytes of ATT header), at most
    /// ``maximumAttributeValue``, the last one shorter. The MTU is clamped to
    /// ``minimumMTU``…``maximumMTU``, since ATT allows nothing else. No data gives no chunks.
    /// At MTU 23 a 50-byte write is 20 + 20 + 10.
    public static func chunks(_ data: [UInt8], mtu: Int) -> [[UInt8]] {
        let size = min(min(max(mtu, minimumMTU), maximumMTU) - 3, maximumAttributeValue)
        return stride(from: 0, to: data.count, by: size).map { start in
            Array(data[start..<min(start + size, data.count)])
        }
    }
}

/// Zebra's Bluetooth Classic serial port (docs/zebra.md §2).
public enum ZebraSPP {
    /// Zebra's SDK opens RFCOMM channel 1 first.
    public static let rfcommChannel = 1
    /// Then falls back to the Serial Port service `00001101-0000-1000-8000-00805F9B34FB`.
    public static let serialPortService = BluetoothUUID(short: 0x1101)
}
