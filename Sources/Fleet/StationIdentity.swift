import CSDBus
import Foundation

/// Who publishes: an id derived from the machine id, and the MQTT client id derived from that.
///
/// machine-id(5) asks that the raw id never leave the machine, so nfctap publishes libsystemd's
/// `sd_id128_get_machine_app_specific()` for its own application id (what
/// `systemd-id128 machine-id --app-specific=a3cbfb1954e84c879a8152a4b7600af8` prints). It is
/// stable for the installation, cannot be turned back into the machine id, and differs from what
/// any other application derives.
public enum StationIdentity {
    /// nfctap's application id (random, fixed for ever).
    public static let applicationIDKey = "a3cbfb1954e84c879a8152a4b7600af8"

    /// The station id every record id and status message carries: the machine's
    /// application-specific id, 32 lowercase hex digits.
    /// - Throws: `FleetError.noMachineID` when libsystemd finds no machine id.
    public static func stationID() throws -> String {
        var application = sd_id128_t()
        var id = sd_id128_t()
        _ = sd_id128_from_string(applicationIDKey, &application)
        let rc = sd_id128_get_machine_app_specific(application, &id)
        guard rc >= 0 else { throw FleetError.noMachineID(errno: -rc) }
        return withUnsafeBytes(of: id.bytes) { bytes in
            bytes.map { String($0, radix: 16).leftPadded(2) }.joined()
        }
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
