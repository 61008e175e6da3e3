/// Why a kiosk configuration was refused. `description` names the file, the setting and the fix.
struct KioskConfigurationError: Error, Equatable, CustomStringConvertible {
    /// The file (or `<inline>`).
    var source: String
    /// The setting at fault (`action`, `backends.libnfc[1]`), or nil for the whole document.
    var key: String?
    var problem: String

    var description: String {
        if let key { return "\(source): \"\(key)\": \(problem)" }
        return "\(source): \(problem)"
    }
}
