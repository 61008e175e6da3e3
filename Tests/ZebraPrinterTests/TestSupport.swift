import NDEF
@testable import ZebraPrinter

/// The four real tag URLs of docs/zebra.md §1.
enum RealTags {
    static let zq320 = "http://www.zebra.com/apps/r/nfc?mE=000000000000&mW=&mB=cc78ab3ebae0&c=ZQ320-A0E02T0-00&s=XXZFJ170700336&v=0"
    static let zq510 = "http://www.zebra.com/apps/r/nfc?mE=000000000000&mW=ac3fa449af4c&mB=ac3fa449af4d&c=ZQ51-AUN010A-00&s=XXRAJ151700742&v=0"
    static let zd410 = "http://www.zebra.com/apps/r/nfc?mE=00074d6c9e65&mW=000000000000&mBL=5cf8218dc99b&c=ZD41H23-D0PE00EZ&s=50J163001771&v=0"
    static let qln320 = "http://www.zebra.com/apps/r/nfc?mBL=00225832C75F&mW=000000000000&mE=000000000000&c=QN3-AUBA0E01-00&s=XXQLJ112600422&v=0"
    static let all = [zq320, zq510, zd410, qln320]
}

func mac(_ text: String) -> MACAddress {
    MACAddress(bytes: [UInt8](hex: text)!)!
}

/// `STX line ETX CR LF` for each line.
func hostStatusReply(_ lines: String...) -> [UInt8] {
    lines.flatMap { [0x02] + Array($0.utf8) + [0x03, 0x0D, 0x0A] }
}

/// The ZQ630 Plus reply of docs/zebra.md §3 (paper out, tear-off), 82 bytes.
let zq630Reply: [UInt8] = hostStatusReply("159,1,0,0249,000,0,0,0,000,0,0,0",
                                          "000,0,0,0,0,2,6,0,00000000,1,000",
                                          "0000,0")

/// A ready printer: every flag clear.
let readyLines = ["030,0,0,1245,000,0,0,0,000,0,0,0", "001,0,0,0,1,2,6,0,00000000,1,000", "1234,0"]
let readyReply = hostStatusReply(readyLines[0], readyLines[1], readyLines[2])
