import Glibc

/// Commands nfctap's messages tell a user to run. They carry `sudo ` only for a user who is not
/// root (a fresh Debian root has no sudo).
enum AdminCommand {
    static let sudo = getuid() == 0 ? "" : "sudo "

    /// `apt-get install <packages>`, as this user runs it.
    static func install(_ packages: String) -> String { "\(sudo)apt-get install \(packages)" }
}
