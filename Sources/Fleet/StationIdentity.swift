import Foundation

/// Who publishes: an id derived from the machine id, and the MQTT client id derived from that.
///
/// machine-id(5) asks that the raw id never leave the machine, so nfctap publishes
/// `applicationID`: HMAC-SHA256 keyed by the machine id over nfctap's application id, cut to 128
/// bits and marked as a version 4 UUID, exactly as `sd_id128_get_machine_app_specific()`
/// (`systemd-id128 machine-id --app-specific=a3cbfb1954e84c879a8152a4b7600af8` prints the same).
/// It is stable for the installation, cannot be turned back into the machine id, and differs from
/// what any other application derives.
public enum StationIdentity {
    /// nfctap's application id (random, fixed for ever).
    public static let applicationIDKey = "a3cbfb1954e84c879a8152a4b7600af8"

    /// The station id every record id and status message carries: `machineID`'s
    /// application-specific id, 32 lowercase hex digits.
    /// - Throws: `FleetError.noMachineID` when no machine id is found.
    public static func stationID(paths: [String] = ["/etc/machine-id", "/var/lib/dbus/machine-id"]) throws -> String {
        applicationID(machineID: try machineID(paths: paths))
    }

    /// The application-specific id of a machine id (32 hex digits) for `applicationIDKey`.
    public static func applicationID(machineID: String, application: String = applicationIDKey) -> String {
        var digest = Array(SHA256.hmac(key: hexBytes(machineID), message: hexBytes(application)).prefix(16))
        digest[6] = (digest[6] & 0x0F) | 0x40  // version 4
        digest[8] = (digest[8] & 0x3F) | 0x80  // RFC 4122 variant
        let hex = Array("0123456789abcdef".utf8)
        var text = ""
        text.reserveCapacity(32)
        for byte in digest {
            text.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
            text.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0x0F)]))
        }
        return text
    }

    private static func hexBytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var high: UInt8?
        for c in hex.utf8 {
            guard let v = UInt8(String(UnicodeScalar(c)), radix: 16) else { continue }
            if let h = high { bytes.append(h << 4 | v); high = nil } else { high = v }
        }
        return bytes
    }

    /// /etc/machine-id (or D-Bus's copy): 32 lowercase hex digits, stable for the installation.
    /// Never published: see `stationID`.
    /// - Throws: `FleetError.noMachineID` when neither file holds one.
    public static func machineID(paths: [String] = ["/etc/machine-id", "/var/lib/dbus/machine-id"]) throws -> String {
        for path in paths {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            // Trimmed with the standard library: `trimmingCharacters(in:)`'s first use cost
            // 780,000 instructions of every station's start (docs/architecture.md "Start-up").
            var trimmed = Substring(text)
            while let first = trimmed.first, first.isWhitespace { trimmed.removeFirst() }
            while let last = trimmed.last, last.isWhitespace { trimmed.removeLast() }
            let id = trimmed.lowercased()
            if id.count == 32, id.allSatisfy(\.isHexDigit) { return id }
        }
        throw FleetError.noMachineID(paths)
    }

    /// A client id stable for one station publishing one file: "nfctap-" + 16 hex digits of a
    /// hash of the station id and the file's absolute path (23 characters: the longest every
    /// MQTT 3.1.1 broker must accept, §3.1.3.1). Two stations never share it, so neither takes
    /// the other's connection.
    public static func clientID(stationID: String, outboxPath: String) -> String {
        "nfctap-" + String(fnv1a64(stationID + "\u{0}" + absolute(outboxPath)), radix: 16).leftPadded(16)
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// FNV-1a, 64 bits: stable across runs and machines (Swift's Hasher is seeded per process).
    static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
