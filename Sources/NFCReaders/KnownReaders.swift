/// USB readers the project knows by ID (the same list as udev/60-nfctap.rules).
public struct KnownReader: Sendable, Hashable {
    public var vendorID: UInt16
    public var productID: UInt16
    public var name: String
    /// True when the kernel's pn533 driver claims this reader (PN53x inside).
    public var pn533Based: Bool

    public static let all: [KnownReader] = [
        KnownReader(vendorID: 0x072f, productID: 0x2200, name: "ACS ACR122U", pn533Based: true),
        KnownReader(vendorID: 0x072f, productID: 0x223b, name: "ACS ACR1252U", pn533Based: false),
        KnownReader(vendorID: 0x072f, productID: 0x223f, name: "ACS ACR1255U-J1", pn533Based: false),
        KnownReader(vendorID: 0x04e6, productID: 0x5591, name: "SCM SCL3711", pn533Based: true),
        KnownReader(vendorID: 0x04cc, productID: 0x2533, name: "NXP PN533", pn533Based: true),
        KnownReader(vendorID: 0x04e6, productID: 0x5790, name: "Identiv uTrust 3700 F", pn533Based: false),
        KnownReader(vendorID: 0x076b, productID: 0x5022, name: "HID OMNIKEY 5022", pn533Based: false),
        KnownReader(vendorID: 0x054c, productID: 0x06c1, name: "Sony RC-S380", pn533Based: false),
        KnownReader(vendorID: 0x054c, productID: 0x06c3, name: "Sony RC-S380", pn533Based: false),
    ]

    public static func find(vendorID: UInt16, productID: UInt16) -> KnownReader? {
        all.first { $0.vendorID == vendorID && $0.productID == productID }
    }
}
