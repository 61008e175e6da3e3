/// The URI identifier codes of the NFC Forum URI RTD 1.0 (Table 3), indexed by code 0x00–0x23.
/// Codes 0x24–0xFF are reserved.
public enum URIPrefixes {
    public static let all: [String] = [
        "", "http://www.", "https://www.", "http://", "https://", "tel:", "mailto:",
        "ftp://anonymous:anonymous@", "ftp://ftp.", "ftps://", "sftp://", "smb://", "nfs://", "ftp://",
        "dav://", "news:", "telnet://", "imap:", "rtsp://", "urn:", "pop:", "sip:", "sips:", "tftp:",
        "btspp://", "btl2cap://", "btgoep://", "tcpobex://", "irdaobex://", "file://",
        "urn:epc:id:", "urn:epc:tag:", "urn:epc:pat:", "urn:epc:raw:", "urn:epc:", "urn:nfc:",
    ]

    /// The prefix for `code`, nil for a reserved code.
    public static func prefix(for code: UInt8) -> String? {
        Int(code) < all.count ? all[Int(code)] : nil
    }

    /// The code whose prefix is the longest one `uri` starts with (compared byte for byte, so
    /// decoding gives back exactly `uri`), and the rest of `uri` after it.
    public static func split(_ uri: String) -> (code: UInt8, rest: Substring) {
        var best = 0
        for (code, prefix) in all.enumerated() where prefix.utf8.count > all[best].utf8.count {
            if uri.utf8.starts(with: prefix.utf8) { best = code }
        }
        let rest = uri.utf8.dropFirst(all[best].utf8.count)
        return (UInt8(best), Substring(rest))
    }
}
