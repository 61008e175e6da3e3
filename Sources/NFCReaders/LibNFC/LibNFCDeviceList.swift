import Foundation

/// Which libnfc devices the backend uses, in order of precedence:
/// an explicit list, `LIBNFC_DEVICE`, `LIBNFC_DEFAULT_DEVICE`, `device.connstring` in
/// libnfc.conf, and last libnfc's own scan (`nfc_list_devices`, which never probes `/dev/pts/*`).
enum LibNFCDeviceList {
    /// The environment variables `configured` reads, from `getenv`.
    static func deviceEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for key in ["LIBNFC_DEVICE", "LIBNFC_DEFAULT_DEVICE"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        return environment
    }

    /// `text` without the white space around it (the standard library's `isWhitespace`).
    static func trimmed<S: StringProtocol>(_ text: S) -> String {
        var rest = Substring(text)
        while let first = rest.first, first.isWhitespace { rest.removeFirst() }
        while let last = rest.last, last.isWhitespace { rest.removeLast() }
        return String(rest)
    }

    /// The configured connstrings, or nil when nothing is configured (then scan).
    static func configured(explicit: [String]?, environment: [String: String], configText: String?) -> [String]? {
        if let explicit { return explicit }
        for key in ["LIBNFC_DEVICE", "LIBNFC_DEFAULT_DEVICE"] {
            if let value = environment[key].map({ trimmed($0) }), !value.isEmpty { return [value] }
        }
        if let configText, let connstring = connstring(inConfig: configText) { return [connstring] }
        return nil
    }

    /// `device.connstring` from libnfc.conf syntax (`key = value` or `key = "value"`, `#` comments).
    static func connstring(inConfig text: String) -> String? {
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = trimmed(rawLine)
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = trimmed(line[..<equals])
            guard key == "device.connstring" else { continue }
            var value = trimmed(line[line.index(after: equals)...])
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
