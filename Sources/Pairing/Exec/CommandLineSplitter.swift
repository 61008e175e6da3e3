/// Splits an `--exec` command line into argv without a shell. The rules, deliberately few:
///
/// - Unquoted spaces, tabs and newlines separate words.
/// - `'…'` is literal up to the next `'`.
/// - `"…"` is literal except `\"` → `"` and `\\` → `\`.
/// - Outside quotes, `\x` is `x` (so `\ ` is a space inside a word).
/// - Nothing else is special: no `$VAR`, `~`, globs, `;`, `|`, `&&`, redirections. The program
///   gets them as ordinary characters. (Tag values never pass through here: they go in the
///   environment and on stdin.)
enum CommandLineSplitter {
    /// - Throws: `PairingError.invalidCommandLine` for an empty line, an unterminated quote or a
    ///   trailing backslash.
    static func split(_ line: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var iterator = line.makeIterator()
        while let c = iterator.next() {
            switch c {
            case " ", "\t", "\n", "\r":
                if inWord { words.append(current); current = ""; inWord = false }
            case "'":
                inWord = true
                var closed = false
                while let d = iterator.next() {
                    if d == "'" { closed = true; break }
                    current.append(d)
                }
                if !closed { throw PairingError.invalidCommandLine("unterminated ' in the command line") }
            case "\"":
                inWord = true
                var closed = false
                while let d = iterator.next() {
                    if d == "\"" { closed = true; break }
                    if d == "\\" {
                        guard let e = iterator.next() else { break }
                        if e != "\"" && e != "\\" { current.append(d) }
                        current.append(e)
                        continue
                    }
                    current.append(d)
                }
                if !closed { throw PairingError.invalidCommandLine("unterminated \" in the command line") }
            case "\\":
                guard let d = iterator.next() else {
                    throw PairingError.invalidCommandLine("the command line ends with a backslash")
                }
                inWord = true
                current.append(d)
            default:
                inWord = true
                current.append(c)
            }
        }
        if inWord { words.append(current) }
        guard let first = words.first, !first.isEmpty else {
            throw PairingError.invalidCommandLine("the command is empty")
        }
        return words
    }
}
