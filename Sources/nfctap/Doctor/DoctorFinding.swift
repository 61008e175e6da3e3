/// One line of `nfctap doctor`: what was checked, what was found, and the exact fix.
struct DoctorFinding: Equatable {
    enum Status: String {
        case ok, warning, failure, info
    }
    /// Stable identifier for scripts and tests, e.g. `kernel-modules`.
    var check: String
    var status: Status
    var summary: String
    /// The command or step that fixes it (nil when nothing to do).
    var fix: String?
}
