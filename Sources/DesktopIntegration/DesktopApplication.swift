import Foundation

/// An application from a desktop entry (`Type=Application`) usable for launching.
public struct DesktopApplication: Sendable, Equatable {
    /// The desktop file ID (`org.example.App.desktop`; subdirectories joined with `-`).
    public var id: String
    /// Where the file is.
    public var path: String
    /// The translated `Name`.
    public var name: String
    public var icon: String?
    public var exec: ExecLine
    /// `X-NFC-URL-Prefixes`.
    public var urlPrefixes: [String]
    /// `NoDisplay=true`: not shown in menus, still an application that opens what it claims
    /// (the spec: it "exists but shouldn't be displayed").
    public var noDisplay: Bool

    public init(id: String, path: String, name: String, icon: String?, exec: ExecLine, urlPrefixes: [String], noDisplay: Bool) {
        self.id = id
        self.path = path
        self.name = name
        self.icon = icon
        self.exec = exec
        self.urlPrefixes = urlPrefixes
        self.noDisplay = noDisplay
    }

    /// The argv to launch the application for `url`, with `file` as `%f`/`%F`.
    public func argv(url: String?, file: String?) -> [String] {
        exec.arguments(for: ExecContext(urls: url.map { [$0] } ?? [], files: file.map { [$0] } ?? [],
                                        icon: icon, name: name, location: path))
    }
}

/// An application's claim on a URL.
public struct URLClaim: Sendable, Equatable {
    public var application: DesktopApplication
    /// Length of the prefix that matched (the longest wins).
    public var prefixLength: Int

    public init(application: DesktopApplication, prefixLength: Int) {
        self.application = application
        self.prefixLength = prefixLength
    }
}
