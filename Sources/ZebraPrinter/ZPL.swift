/// Fixed ZPL commands the project sends (docs/zebra.md §3).
public enum ZPL {
    /// The test label of Zebra's demos: a Code 39 barcode of "Hello World!".
    /// `~hi^XA^FO20,20^BY3^B3N,N,150,Y,N^FDHello World!^FS^XZ` CR LF.
    public static let testLabel: [UInt8] = Array("~hi^XA^FO20,20^BY3^B3N,N,150,Y,N^FDHello World!^FS^XZ\r\n".utf8)

    /// `~HS`, host status: the printer answers with three framed lines (see ``PrinterStatus``).
    /// A control command; it needs no terminator.
    public static let hostStatusRequest: [UInt8] = Array("~HS".utf8)
}
