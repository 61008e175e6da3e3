import Testing
@testable import Pairing

@Suite struct CommandLineSplitterTests {
    @Test(arguments: [
        ("prog", ["prog"]),
        ("  prog   a\tb\nc  ", ["prog", "a", "b", "c"]),
        ("prog 'a b' \"c d\"", ["prog", "a b", "c d"]),
        ("prog 'it\"s' \"it's\"", ["prog", "it\"s", "it's"]),
        ("prog \"a \\\"q\\\" \\\\ \\n\"", ["prog", "a \"q\" \\ \\n"]),
        ("prog a\\ b \\'x", ["prog", "a b", "'x"]),
        ("prog '' \"\"", ["prog", "", ""]),
        ("prog ab'cd'\"ef\"", ["prog", "abcdef"]),
        ("prog $HOME ~ *.txt ; | && > out", ["prog", "$HOME", "~", "*.txt", ";", "|", "&&", ">", "out"]),
        ("prog '$(rm -rf /)'", ["prog", "$(rm -rf /)"]),
    ])
    func splits(line: String, expected: [String]) throws {
        #expect(try CommandLineSplitter.split(line) == expected)
    }

    @Test(arguments: [
        ("", "the command is empty"),
        ("   ", "the command is empty"),
        ("'' arg", "the command is empty"),
        ("prog 'open", "unterminated ' in the command line"),
        ("prog \"open", "unterminated \" in the command line"),
        ("prog \"open\\", "unterminated \" in the command line"),
        ("prog trailing\\", "the command line ends with a backslash"),
    ])
    func rejects(line: String, reason: String) {
        #expect(throws: PairingError.invalidCommandLine(reason)) { try CommandLineSplitter.split(line) }
    }
}
