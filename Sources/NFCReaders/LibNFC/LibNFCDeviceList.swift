import Foundation

/// Which libnfc devices the backend uses, in order of precedence:
/// an explicit list, `LIBNFC_DEVICE`, `LIBNFC_DEFAULT_DEVICE`, `device.connstring` in
/// libnfc.conf, and last libnfc's own scan (`nfc_list_devices`, which never probes `/dev/pts/*`).
enum LibNFCDeviceList {
    /// The configured connstrings, or nil when nothing is configured (then scan).
    static func configured(explicit: [String]?, environment: [String: String], configText: String?) -> [String]? {
        if let explicit { return explicit }
        for key in ["LIBNFC_DEVICE", "LIBNFC_DEFAULT_DEVICE"] {
            if let value = environment[key]?.trimmingCharacters(in: .whitespaces), !value.isEmpty { return [value] }
        }
        if let configText, let connstring = connstring(inConfig: configText) { return [connstring] }
        return nil
    }

    /// `device.connstring` from libnfc.conf syntax (`key = value` or `key = "value"`, `#` comments).
    static func connstring(inConfig text: String) -> String? {
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            guard key == "device.connstring" else { continue }
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The reader name users see for a connstring.
    static func readerName(_ connstring: String) -> String { "libnfc:\(connstring)" }

    /// The connstring inside a reader name, or nil for a name of another backend.
    static func connstring(readerName: String) -> String? {
        readerName.hasPrefix("libnfc:") ? String(readerName.dropFirst("libnfc:".count)) : nil
    }
}
