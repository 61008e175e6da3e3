/// Why a kiosk configuration was refused. `description` names the file, the setting and the fix.
package struct KioskConfigurationError: Error, Equatable, CustomStringConvertible {
    /// The file (or `<inline>`).
    package var source: String
    /// The setting at fault (`action`, `backends.libnfc[1]`), or nil for the whole document.
    package var key: String?
    package var problem: String

    package var description: String {
        if let key { return "\(source): \"\(key)\": \(problem)" }
        return "\(source): \(problem)"
    }
}
