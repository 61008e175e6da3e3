// Linux scaffolding for AsyncTagScanner:
//
//   AsyncNDEFExample [--append TEXT] [--time-limit S]
//
// Prints each record of the tag's message (and, with --append, of the message written back).
// Exit status: 0 done, 1 failed (the reason is printed), 2 usage.
import CoreNFCLinux
@preconcurrency import SwiftGlibc  // Swift 6: `stdout` is a C global; the scaffolding sets it up once, first

setvbuf(stdout, nil, _IOLBF, 0)

func usage(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("\(problem)\nusage: AsyncNDEFExample [--append TEXT] [--time-limit S]\n".utf8))
    exit(2)
}

var appendText: String?
var configuration = NFCSessionConfiguration.shared
var arguments = Array(CommandLine.arguments.dropFirst())
while let flag = arguments.first {
    arguments.removeFirst()
    guard let value = arguments.first else { usage("\(flag) needs a value") }
    arguments.removeFirst()
    switch flag {
    case "--append": appendText = value
    case "--time-limit":
        guard let seconds = Double(value), seconds >= 0 else { usage("--time-limit takes seconds (0: none)") }
        configuration.timeLimit = seconds == 0 ? nil : .milliseconds(Int(seconds * 1000))
    default: usage("unknown option \(flag)")
    }
}
NFCSessionConfiguration.shared = configuration

func lines(_ message: NFCNDEFMessage?) -> [String] {
    (message?.records ?? []).map { record in
        if let url = record.wellKnownTypeURIPayload() { return "URI \(url.absoluteString)" }
        if case let (text?, _) = record.wellKnownTypeTextPayload() { return "Text \(text)" }
        return "Record of \(record.payload.count) bytes"
    }
}

let scanner = AsyncTagScanner()
let text = appendText
Task {
    do {
        let outcome = try await scanner.scan(appending: text)
        print("Capacity: \(outcome.capacity) bytes")
        for line in lines(outcome.before) { print("Read: \(line)") }
        if let after = outcome.after {
            for line in lines(after) { print("Wrote: \(line)") }
        }
        exit(0)
    } catch {
        print("Failed: \(error.localizedDescription)")
        exit(1)
    }
}
dispatchMain()
