import Foundation
import RecordOutput

/// `pair --json`'s one object, filled as the run goes and printed once, on success or failure
/// (see `PairReport` for its keys). Without `--json` nothing is printed.
package struct PairOutput {
    let json: Bool
    var fields: [(String, JSONValue)]

    package init(json: Bool, fields: [(String, JSONValue)]) {
        self.json = json
        self.fields = fields
    }

    package mutating func add(_ key: String, _ value: JSONValue) {
        fields.append((key, value))
    }

    package func finish() {
        guard json else { return }
        print(JSONDocument.line(.object(fields)))
        StandardOutput.flush()
    }

    /// Adds `error` and prints the object; the failure (exit 1) the command throws.
    package func fail(_ message: String, console: PairConsole) -> CLIError {
        var copy = self
        copy.add("error", .string(message))
        copy.finish()
        return console.failure(message, status: ExitStatus.failure)
    }
}
