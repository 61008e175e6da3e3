/// The literal printer commands nfctap sends (specs/zebra.md §3), in one place so the lead can
/// swap in ZebraPrinter's ZPL/SGD constants when the branches meet.
enum PrinterCommands {
    /// Zebra's demo test label (`~hi^XA^FO20,20^BY3^B3N,N,150,Y,N^FDHello World!^FS^XZ\r\n`).
    static let testLabel: [UInt8] = Array("~hi^XA^FO20,20^BY3^B3N,N,150,Y,N^FDHello World!^FS^XZ\r\n".utf8)
    /// Host status request.
    static let hostStatus: [UInt8] = Array("~HS".utf8)

    /// `! U1 getvar "name"\r\n`
    static func getVariable(_ name: String) throws -> [UInt8] {
        try checkSGD(name)
        return Array("! U1 getvar \"\(name)\"\r\n".utf8)
    }

    /// `! U1 setvar "name" "value"\r\n`
    static func setVariable(_ name: String, _ value: String) throws -> [UInt8] {
        try checkSGD(name)
        try checkSGD(value)
        return Array("! U1 setvar \"\(name)\" \"\(value)\"\r\n".utf8)
    }

    /// A quote or line break would end the command early and let a hostile value inject another.
    private static func checkSGD(_ text: String) throws {
        if text.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
            throw PairingError.invalidPrinterCommand("\"\(text)\"")
        }
    }

    /// A `~HS` reply is three `STX … ETX CR LF` lines: complete once three `ETX CR LF` arrived.
    static func isCompleteHostStatus(_ bytes: [UInt8]) -> Bool {
        var count = 0
        var i = 0
        while i + 2 < bytes.count {
            if bytes[i] == 0x03 && bytes[i + 1] == 0x0D && bytes[i + 2] == 0x0A { count += 1; i += 3 } else { i += 1 }
        }
        return count >= 3
    }

    /// An SGD reply is one double-quoted value: complete at the second `"`.
    static func isCompleteSGDReply(_ bytes: [UInt8]) -> Bool {
        bytes.lazy.filter { $0 == UInt8(ascii: "\"") }.count >= 2
    }
}
