// The Exec key (Desktop Entry Specification, "The Exec key"): arguments separated by spaces,
// double-quoted arguments with `\" \` \$ \\` escapes, reserved characters only inside quotes,
// and field codes expanded into whole arguments. No shell is ever involved: the result is argv.

/// One argument of an Exec line before expansion: literal text and field codes in order.
public struct ExecArgument: Sendable, Equatable {
    public enum Piece: Sendable, Equatable {
        case text(String)
        /// A field code letter (`u`, `U`, `f`, `F`, `i`, `c`, `k`).
        case field(Character)
    }
    public var pieces: [Piece]
}

/// What the field codes expand to for one launch.
public struct ExecContext: Sendable, Equatable {
    /// `%u`/`%U`.
    public var urls: [String]
    /// `%f`/`%F`: local file names.
    public var files: [String]
    /// The entry's `Icon` (`%i` → `--icon <Icon>`; nothing when nil or empty).
    public var icon: String?
    /// The entry's translated `Name` (`%c`).
    public var name: String
    /// The desktop file's location (`%k`).
    public var location: String

    public init(urls: [String] = [], files: [String] = [], icon: String? = nil, name: String = "", location: String = "") {
        self.urls = urls
        self.files = files
        self.icon = icon
        self.name = name
        self.location = location
    }
}

/// A parsed Exec value: `arguments(for:)` gives the argv to spawn.
public struct ExecLine: Sendable, Equatable {
    public let arguments: [ExecArgument]

    /// Characters that must be quoted (the spec's reserved list, space and `"` handled apart).
    static let reserved: Set<Character> = ["\t", "\n", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#", "(", ")", "`"]
    /// Field codes the spec defines; the deprecated ones (`d D n N v m`) expand to nothing.
    static let codes: Set<Character> = ["f", "F", "u", "U", "i", "c", "k"]
    static let deprecated: Set<Character> = ["d", "D", "n", "N", "v", "m"]

    /// Parses an Exec value whose string escapes (`\s`, `\\`, …) are already resolved.
    /// - Throws: `DesktopEntryError.invalidExec` for an unterminated quote, a reserved character
    ///   outside quotes, an unknown field code, `%F`/`%U`/`%i` not standing alone, more than one
    ///   of `%f %F %u %U`, a field code inside quotes, or an empty line.
    public init(_ value: String) throws {
        var arguments: [ExecArgument] = []
        var chars = Array(value)
        // Trailing/leading spaces separate nothing.
        while chars.last == " " { chars.removeLast() }
        var i = 0
        while i < chars.count {
            if chars[i] == " " { i += 1; continue }
            var pieces: [ExecArgument.Piece] = []
            var text = ""
            func flush() { if !text.isEmpty { pieces.append(.text(text)); text = "" } }
            if chars[i] == "\"" {
                // A quoted argument: the whole argument, closed by an unescaped quote.
                i += 1
                var closed = false
                while i < chars.count {
                    let c = chars[i]
                    if c == "\"" { closed = true; i += 1; break }
                    if c == "\\" {
                        guard i + 1 < chars.count, ["\"", "`", "$", "\\"].contains(chars[i + 1]) else {
                            throw DesktopEntryError.invalidExec("a backslash inside quotes must escape \" ` $ or \\")
                        }
                        text.append(chars[i + 1])
                        i += 2
                        continue
                    }
                    if c == "%" {
                        guard i + 1 < chars.count, chars[i + 1] == "%" else {
                            throw DesktopEntryError.invalidExec("field codes may not be used inside a quoted argument")
                        }
                        text.append("%")
                        i += 2
                        continue
                    }
                    text.append(c)
                    i += 1
                }
                guard closed else { throw DesktopEntryError.invalidExec("unterminated quoted argument") }
                guard i == chars.count || chars[i] == " " else {
                    throw DesktopEntryError.invalidExec("a quoted argument must be followed by a space")
                }
                flush()
                arguments.append(ExecArgument(pieces: pieces.isEmpty ? [.text("")] : pieces))
                continue
            }
            while i < chars.count, chars[i] != " " {
                let c = chars[i]
                if c == "\"" { throw DesktopEntryError.invalidExec("a quote may only start an argument") }
                if Self.reserved.contains(c) {
                    throw DesktopEntryError.invalidExec("reserved character \"\(c)\" must be inside a quoted argument")
                }
                if c == "%" {
                    guard i + 1 < chars.count else { throw DesktopEntryError.invalidExec("a lone % at the end") }
                    let code = chars[i + 1]
                    i += 2
                    if code == "%" { text.append("%"); continue }
                    if Self.deprecated.contains(code) { continue }
                    guard Self.codes.contains(code) else { throw DesktopEntryError.invalidExec("unknown field code %\(code)") }
                    flush()
                    pieces.append(.field(code))
                    continue
                }
                text.append(c)
                i += 1
            }
            flush()
            // An argument made only of deprecated codes disappears.
            if !pieces.isEmpty { arguments.append(ExecArgument(pieces: pieces)) }
        }
        guard let first = arguments.first, case .text(let program)? = first.pieces.first, first.pieces.count == 1, !program.isEmpty else {
            throw DesktopEntryError.invalidExec("the first argument must be the program")
        }
        var fileOrURL = 0
        for argument in arguments {
            for case let .field(code) in argument.pieces {
                if "fFuU".contains(code) { fileOrURL += 1 }
                if "FUi".contains(code), argument.pieces.count != 1 {
                    throw DesktopEntryError.invalidExec("%\(code) must be an argument on its own")
                }
            }
        }
        guard fileOrURL <= 1 else { throw DesktopEntryError.invalidExec("at most one of %f %F %u %U") }
        self.arguments = arguments
    }

    /// The program (argv[0]) as written: a name looked up in PATH, or an absolute path.
    public var program: String {
        if case .text(let p)? = arguments.first?.pieces.first { return p }
        return ""
    }

    /// Whether the line takes a URL (`%u`/`%U`).
    public var acceptsURLs: Bool { contains("u") || contains("U") }
    /// Whether the line takes a file (`%f`/`%F`).
    public var acceptsFiles: Bool { contains("f") || contains("F") }

    private func contains(_ code: Character) -> Bool {
        arguments.contains { $0.pieces.contains(.field(code)) }
    }

    /// The argv for one launch. `%u`/`%f` take the first URL/file; `%U`/`%F` every one; a
    /// standalone single code with nothing to give is dropped, inside an argument it expands to "".
    public func arguments(for context: ExecContext) -> [String] {
        var argv: [String] = []
        for argument in arguments {
            if argument.pieces.count == 1, case let .field(code) = argument.pieces[0] {
                switch code {
                case "U": argv += context.urls
                case "F": argv += context.files
                case "u": if let u = context.urls.first { argv.append(u) }
                case "f": if let f = context.files.first { argv.append(f) }
                case "i": if let icon = context.icon, !icon.isEmpty { argv += ["--icon", icon] }
                case "c": argv.append(context.name)
                case "k": argv.append(context.location)
                default: break
                }
                continue
            }
            var text = ""
            for piece in argument.pieces {
                switch piece {
                case let .text(t): text += t
                case .field("u"): text += context.urls.first ?? ""
                case .field("f"): text += context.files.first ?? ""
                case .field("c"): text += context.name
                case .field("k"): text += context.location
                case .field: break
                }
            }
            argv.append(text)
        }
        return argv
    }
}
