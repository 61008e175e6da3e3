/// Whether a desktop entry is shown (and so used) in the current desktop environment: the Desktop
/// Entry Specification's `OnlyShowIn` / `NotShowIn` keys against `$XDG_CURRENT_DESKTOP`.
///
/// The spec's rule: an entry is shown by default, unless it has `OnlyShowIn`, which makes the
/// default "not shown". `$XDG_CURRENT_DESKTOP` is a colon-separated list; its names are considered
/// in order, and the first one found in `OnlyShowIn` (shown) or `NotShowIn` (not shown) decides.
/// When none matches (or the variable is unset), the default applies. Names compare case-sensitively
/// (`KDE`, not `kde`), as the Desktop Menu Specification's registry says.
public enum DesktopVisibility {
    /// `$XDG_CURRENT_DESKTOP` split on `:`, empty names dropped; empty when unset.
    public static func currentDesktops(environment: [String: String]) -> [String] {
        (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map(String.init)
    }

    /// - Parameters:
    ///   - onlyShowIn: the entry's `OnlyShowIn` list, nil when the key is absent (a present but
    ///     empty key still makes the default "not shown").
    ///   - notShowIn: the entry's `NotShowIn` list (empty when absent).
    public static func isShown(onlyShowIn: [String]?, notShowIn: [String], currentDesktops: [String]) -> Bool {
        for desktop in currentDesktops {
            if onlyShowIn?.contains(desktop) == true { return true }
            if notShowIn.contains(desktop) { return false }
        }
        return onlyShowIn == nil
    }
}
