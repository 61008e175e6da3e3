import Glibc

/// The commands doctor prints as fixes: `sudo ` in front only for a user who is not root (a fresh
/// Debian root has no sudo), several joined with `&&`.
package enum DoctorAdvice {
    package static var isRoot: Bool { getuid() == 0 }

    package static func asRoot(_ commands: String...) -> String {
        let sudo = isRoot ? "" : "sudo "
        return commands.map { sudo + $0 }.joined(separator: " && ")
    }

    /// Where the files doctor checks come from: the Debian package, or the source tree.
    package static let fromSource = "(from the nfctap source tree; the Debian package installs it)"
}
