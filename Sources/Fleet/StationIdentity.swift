import Foundation

/// Who publishes: the machine (systemd's machine id) and the MQTT client id derived from it.
public enum StationIdentity {
    /// /etc/machine-id (or D-Bus's copy): 32 lowercase hex digits, stable for the installation.
    /// - Throws: `FleetError.noMachineID` when neither file holds one.
    public static func machineID(paths: [String] = ["/etc/machine-id", "/var/lib/dbus/machine-id"]) throws -> String {
        for path in paths {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            let id = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            if id.count == 32, id.allSatisfy(\.isHexDigit) { return id }
        }
        throw FleetError.noMachineID(paths)
    }

    /// A client id stable for one station publishing one file: "nfctap-" + 16 hex digits of a
    /// hash of the machine id and the file's absolute path (23 characters: the longest every
    /// MQTT 3.1.1 broker must accept, §3.1.3.1). Two stations never share it, so neither takes
    /// the other's connection.
    public static func clientID(machineID: String, outboxPath: String) -> String {
        "nfctap-" + String(fnv1a64(machineID + "\u{0}" + absolute(outboxPath)), radix: 16).leftPadded(16)
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
