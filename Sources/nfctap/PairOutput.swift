import Foundation
import NFCTapKit

/// `pair --json`'s one object, filled as the run goes and printed once, on success or failure
/// (see `PairReport` for its keys). Without `--json` nothing is printed.
struct PairOutput {
    let json: Bool
    var fields: [(String, JSONValue)]

    mutating func add(_ key: String, _ value: JSONValue) {
        fields.append((key, value))
    }

    func finish() {
        guard json else { return }
        print(JSONDocument.line(.object(fields)))
        StandardOutput.flush()
    }

    /// Adds `error`, prints the object, writes the message on stderr and exits 1.
    func fail(_ message: String, console: PairConsole) -> Never {
        var copy = self
        copy.add("error", .string(message))
        copy.finish()
        console.fail(message, code: NFCTapExit.failure)
    }
}
