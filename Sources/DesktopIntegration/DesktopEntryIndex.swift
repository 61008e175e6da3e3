import Foundation

/// The applications of the XDG data directories (Desktop Entry Specification, "Desktop File
/// ID" and the Base Directory Specification): `$XDG_DATA_HOME/applications` first, then each
/// `$XDG_DATA_DIRS/applications`. A desktop file ID found earlier hides later files with the same
/// ID, including when the earlier one is `Hidden=true` (the user deleted it); entries whose
/// `TryExec` is not an executable program are left out, and so are entries not shown in the current
/// desktop (`OnlyShowIn`/`NotShowIn` against `$XDG_CURRENT_DESKTOP`, `DesktopVisibility`).
public struct DesktopEntryIndex: Sendable {
    public private(set) var applications: [DesktopApplication] = []
    /// Files that could not be used, with the reason (the agent logs them).
    public private(set) var problems: [(path: String, reason: String)] = []

    static let maximumDepth = 8

    /// Scans `dataDirectories` in order (most important first).
    /// - Parameters:
    ///   - locale: for `Name[xx]` (the value of `LC_ALL`/`LC_MESSAGES`/`LANG`).
    ///   - currentDesktops: `$XDG_CURRENT_DESKTOP` split (`DesktopVisibility.currentDesktops`);
    ///     empty when it is unset, which leaves out every entry with `OnlyShowIn`.
    ///   - isExecutable: whether a `TryExec` value names an executable (tests replace it).
    public init(dataDirectories: [String], locale: String? = nil, currentDesktops: [String] = [],
                isExecutable: (String) -> Bool = DesktopEntryIndex.programExists) {
        var seen = Set<String>()
        for directory in dataDirectories where !directory.isEmpty {
            let root = (directory as NSString).appendingPathComponent("applications")
            for (id, path) in Self.desktopFiles(under: root, prefix: "", depth: 0) {
                guard seen.insert(id).inserted else { continue }
                do {
                    if let app = try Self.application(id: id, path: path, locale: locale, currentDesktops: currentDesktops,
                                                            isExecutable: isExecutable) {
                        applications.append(app)
                    }
                } catch {
                    problems.append((path, "\(error)"))
                }
            }
        }
    }

    /// The application claiming `url` with the longest `X-NFC-URL-Prefixes` prefix; on a tie the
    /// one found first (the user's own entries before the system's).
    public func claim(for url: String) -> URLClaim? {
        var best: URLClaim?
        for app in applications {
            guard let length = URLPrefix.longestMatch(app.urlPrefixes, url) else { continue }
            if best == nil || length > best!.prefixLength { best = URLClaim(application: app, prefixLength: length) }
        }
        return best
    }

    /// Reads one file; nil when it is not a launchable application (hidden, another type, not
    /// shown in the current desktop, TryExec missing).
    static func application(id: String, path: String, locale: String?, currentDesktops: [String],
                            isExecutable: (String) -> Bool) throws -> DesktopApplication? {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DesktopEntryError.malformed(line: 0, reason: "unreadable")
        }
        guard data.count <= DesktopEntryFile.maximumSize else { throw DesktopEntryError.malformed(line: 0, reason: "larger than \(DesktopEntryFile.maximumSize) bytes") }
        guard let text = String(data: data, encoding: .utf8) else { throw DesktopEntryError.malformed(line: 0, reason: "not UTF-8") }
        let file = try DesktopEntryFile(text: text)
        if file.bool("Hidden") { return nil }
        guard let type = file.string("Type") else { throw DesktopEntryError.missingKey("Type") }
        guard type == "Application" else { return nil }
        guard DesktopVisibility.isShown(onlyShowIn: file.keys["OnlyShowIn"].map { _ in file.list("OnlyShowIn") },
                                        notShowIn: file.list("NotShowIn"), currentDesktops: currentDesktops) else { return nil }
        if let tryExec = file.string("TryExec"), !tryExec.isEmpty, !isExecutable(tryExec) { return nil }
        guard let name = file.localized("Name", locale: locale) else { throw DesktopEntryError.missingKey("Name") }
        guard let execValue = file.string("Exec") else { throw DesktopEntryError.missingKey("Exec") }
        let exec = try ExecLine(execValue)
        return DesktopApplication(id: id, path: path, name: name, icon: file.localized("Icon", locale: locale),
                                  exec: exec, urlPrefixes: file.list(URLPrefix.desktopEntryKey), noDisplay: file.bool("NoDisplay"))
    }

    /// `(desktop file ID, path)` of every `*.desktop` below `root`, sorted for a stable order.
    static func desktopFiles(under root: String, prefix: String, depth: Int) -> [(String, String)] {
        guard depth <= maximumDepth, let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return [] }
        var out: [(String, String)] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = (root as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                out += desktopFiles(under: path, prefix: prefix + name + "-", depth: depth + 1)
            } else if name.hasSuffix(".desktop") {
                out.append((prefix + name, path))
            }
        }
        return out
    }

    /// `TryExec`/`Exec` program lookup: an absolute path must be an executable file, a name is
    /// searched in `PATH`.
    public static func programExists(_ program: String) -> Bool {
        if program.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: program) }
        guard !program.contains("/") else { return false }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
        }
    }
}

/// `$XDG_DATA_HOME` and `$XDG_DATA_DIRS` with the Base Directory Specification's defaults.
public enum XDGDataDirectories {
    public static func all(environment: [String: String]) -> [String] {
        let home = environment["HOME"] ?? NSHomeDirectory()
        var dataHome = environment["XDG_DATA_HOME"] ?? ""
        if !dataHome.hasPrefix("/") { dataHome = home + "/.local/share" }  // relative paths are invalid
        var dirs = (environment["XDG_DATA_DIRS"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        if dirs.isEmpty { dirs = ["/usr/local/share", "/usr/share"] }
        return [dataHome] + dirs
    }
}
