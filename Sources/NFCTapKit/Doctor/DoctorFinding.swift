/// One line of `nfctap doctor`: what was checked, what was found, and the exact fix.
package struct DoctorFinding: Equatable {
    package enum Status: String {
        case ok, warning, failure, info
    }
    /// Stable identifier for scripts and tests, e.g. `kernel-modules`.
    package var check: String
    package var status: Status
    package var summary: String
    /// The command or step that fixes it (nil when nothing to do).
    package var fix: String?
}
