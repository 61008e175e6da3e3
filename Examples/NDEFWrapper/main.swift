// Linux scaffolding for NFCNDEFManager (an iOS app would call it from a view controller):
//
//   NDEFWrapperExample read [--archive FILE] [--time-limit S]
//   NDEFWrapperExample write URL NOTE [--archive FILE] [--time-limit S]
//   NDEFWrapperExample last [--archive FILE]      print the archived last message
//
// Exit status: 0 done, 1 failed (the reason is printed), 2 usage.
import CoreNFCLinux
@preconcurrency import SwiftGlibc  // Swift 6: `stdout` is a C global; the scaffolding sets it up once, first

setvbuf(stdout, nil, _IOLBF, 0)

func usage(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("""
        \(problem)
        usage: NDEFWrapperExample read|write URL NOTE|last [--archive FILE] [--time-limit S]

        """.utf8))
    exit(2)
}

var positional: [String] = []
var archive = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-last-message.archive")
var configuration = NFCSessionConfiguration.shared
var arguments = Array(CommandLine.arguments.dropFirst())
while let argument = arguments.first {
    arguments.removeFirst()
    switch argument {
    case "--archive", "--time-limit":
        guard let value = arguments.first else { usage("\(argument) needs a value") }
        arguments.removeFirst()
        if argument == "--archive" {
            archive = URL(fileURLWithPath: value)
        } else {
            guard let seconds = Double(value), seconds >= 0 else { usage("--time-limit takes seconds (0: none)") }
            configuration.timeLimit = seconds == 0 ? nil : .milliseconds(Int(seconds * 1000))
        }
    default:
        positional.append(argument)
    }
}
NFCSessionConfiguration.shared = configuration

/// One line per record: what an app would show in its list.
func show(_ message: NFCNDEFMessage) {
    for record in message.records {
        if let url = record.wellKnownTypeURIPayload() {
            print("URI: \(url.absoluteString)")
        } else if case let (text?, locale) = record.wellKnownTypeTextPayload() {
            print("Text (\(locale?.identifier ?? "?")): \(text)")
        } else {
            print("\(String(decoding: record.type, as: UTF8.self)): \(record.payload.count) bytes")
        }
    }
}

let manager = NFCNDEFManager(archiveURL: archive)
let done: (Result<NFCNDEFMessage, Error>) -> Void = { result in
    switch result {
    case let .success(message):
        show(message)
        exit(0)
    case let .failure(error):
        print("Failed: \(error.localizedDescription)")
        exit(1)
    }
}

switch positional.first {
case "read" where positional.count == 1:
    manager.read(completion: done)
case "write" where positional.count == 3:
    guard let url = URL(string: positional[1]) else { usage("not a URL: \(positional[1])") }
    manager.write(url: url, note: positional[2], completion: done)
case "last" where positional.count == 1:
    guard let message = manager.lastMessage() else {
        print("No archived message.")
        exit(1)
    }
    show(message)
    exit(0)
default:
    usage(positional.isEmpty ? "say read, write or last" : "unexpected arguments: \(positional.joined(separator: " "))")
}
dispatchMain()
