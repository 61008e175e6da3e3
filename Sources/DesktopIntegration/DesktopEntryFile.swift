// Reading a desktop entry file (freedesktop Desktop Entry Specification, "Basic format of the
// file" and "Possible value types"). Only the `[Desktop Entry]` group is kept.

/// Why a desktop entry cannot be used.
public enum DesktopEntryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is not UTF-8, too large, or has a line that is neither a group, a key nor a comment.
    case malformed(line: Int, reason: String)
    /// No `[Desktop Entry]` group, or the group has no `Type`/`Name`/`Exec`.
    case missingKey(String)
    /// The `Exec` value breaks the quoting or field-code rules.
    case invalidExec(String)

    public var description: String {
        switch self {
        case let .malformed(line, reason): return "line \(line): \(reason)"
        case let .missingKey(key): return "no \(key) key in [Desktop Entry]"
        case let .invalidExec(reason): return "Exec: \(reason)"
        }
    }
}

/// The keys of a file's `[Desktop Entry]` group, raw (escapes not yet resolved).
public struct DesktopEntryFile: Sendable, Equatable {
    /// The largest file read; real entries are a few KiB.
    public static let maximumSize = 256 * 1024

    public private(set) var keys: [String: String] = [:]

    /// Parses the text of a desktop entry file.
    /// - Throws: `DesktopEntryError.malformed` for an unparsable line inside `[Desktop Entry]`,
    ///   `.missingKey("[Desktop Entry]")` when the group is absent.
    public init(text: String) throws {
        var group: String?
        var sawMainGroup = false
        var number = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if trimmed.hasPrefix("[") {
                guard trimmed.hasSuffix("]") else { throw DesktopEntryError.malformed(line: number, reason: "unterminated group header") }
                group = String(trimmed.dropFirst().dropLast())
                if group == "Desktop Entry" {
                    // The spec allows each group once; a second [Desktop Entry] is an error.
                    guard !sawMainGroup else { throw DesktopEntryError.malformed(line: number, reason: "second [Desktop Entry] group") }
                    sawMainGroup = true
                }
                continue
            }
            guard group == "Desktop Entry" else { continue }
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw DesktopEntryError.malformed(line: number, reason: "expected Key=Value")
            }
            let key = trimmed[..<equals].trimmingSpaces()
            let value = trimmed[trimmed.index(after: equals)...].drop(while: { $0 == " " || $0 == "\t" })
            guard Self.isValidKey(key) else { throw DesktopEntryError.malformed(line: number, reason: "invalid key \"\(key)\"") }
            if keys[key] == nil { keys[key] = String(value) }  // a repeated key: the first counts
        }
        guard sawMainGroup else { throw DesktopEntryError.missingKey("[Desktop Entry]") }
    }

    /// A key's value of type string (escapes `\s \n \t \r \\` resolved), nil when absent.
    public func string(_ key: String) -> String? {
        keys[key].map { Self.unescape($0, listSeparator: false).joined() }
    }

    /// A boolean key: true only for the literal `true`.
    public func bool(_ key: String) -> Bool {
        keys[key]?.trimmingSpaces() == "true"
    }

    /// A list of strings separated by `;` (`\;` is a literal semicolon); empty items dropped.
    public func list(_ key: String) -> [String] {
        guard let raw = keys[key] else { return [] }
        return Self.unescape(raw, listSeparator: true).filter { !$0.isEmpty }
    }

    /// A localestring for the current `LANG`/`LC_MESSAGES` (`Name[de_DE]`, `Name[de]`, then `Name`).
    public func localized(_ key: String, locale: String?) -> String? {
        if let locale, !locale.isEmpty {
            let base = locale.split(separator: ".").first.map(String.init) ?? locale  // de_DE.UTF-8 → de_DE
            let noModifier = base.split(separator: "@").first.map(String.init) ?? base
            let language = noModifier.split(separator: "_").first.map(String.init) ?? noModifier
            for candidate in [base, noModifier, language] {
                if let v = string("\(key)[\(candidate)]") { return v }
            }
        }
        return string(key)
    }

    // MARK: Helpers

    /// Keys: A-Za-z0-9-, optionally followed by a `[locale]`.
    static func isValidKey(_ key: String) -> Bool {
        guard !key.isEmpty else { return false }
        var name = key
        if let open = key.firstIndex(of: "[") {
            guard key.hasSuffix("]"), key.index(after: open) < key.index(before: key.endIndex) else { return false }
            name = String(key[..<open])
        }
        return !name.isEmpty && name.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" }
    }

    /// Resolves `\s \n \t \r \\` (and `\;` in lists, which then also split on `;`).
    static func unescape(_ raw: String, listSeparator: Bool) -> [String] {
        var items: [String] = []
        var current = ""
        var iterator = raw.makeIterator()
        while let c = iterator.next() {
            if c == "\\" {
                guard let next = iterator.next() else { current.append("\\"); break }
                switch next {
                case "s": current.append(" ")
                case "n": current.append("\n")
                case "t": current.append("\t")
                case "r": current.append("\r")
                case "\\": current.append("\\")
                case ";" where listSeparator: current.append(";")
                default: current.append("\\"); current.append(next)
                }
            } else if c == ";" && listSeparator {
                items.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        items.append(current)
        return items
    }
}

extension Substring {
    func trimmingSpaces() -> String {
        String(self.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}

extension String {
    func trimmingSpaces() -> String { Substring(self).trimmingSpaces() }
}
