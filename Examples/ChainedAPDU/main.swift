// Linux scaffolding for DocumentReader:
//
//   ChainedAPDUExample [--chunk N] [--time-limit S] [--reader NAME]
//
// Prints each APDU, then the files read and the records. Exit status: 0 read, 1 not (the reason
// is printed), 2 usage.
import CoreNFCLinux
@preconcurrency import SwiftGlibc  // Swift 6: `stdout` is a C global; the scaffolding sets it up once, first

setvbuf(stdout, nil, _IOLBF, 0)

func usage(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("\(problem)\nusage: ChainedAPDUExample [--chunk N] [--time-limit S] [--reader NAME]\n".utf8))
    exit(2)
}

func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined() }

var configuration = NFCSessionConfiguration.shared
var chunk = 0xA0
var arguments = Array(CommandLine.arguments.dropFirst())
while let flag = arguments.first {
    arguments.removeFirst()
    guard let value = arguments.first else { usage("\(flag) needs a value") }
    arguments.removeFirst()
    switch flag {
    case "--chunk":
        guard let n = Int(value), (1...256).contains(n) else { usage("--chunk takes 1…256 bytes") }
        chunk = n
    case "--time-limit":
        guard let seconds = Double(value), seconds >= 0 else { usage("--time-limit takes seconds (0: none)") }
        configuration.timeLimit = seconds == 0 ? nil : .milliseconds(Int(seconds * 1000))
    case "--reader": configuration.readerFilter = .nameContains(value)
    default: usage("unknown option \(flag)")
    }
}
NFCSessionConfiguration.shared = configuration

let reader = DocumentReader()
reader.progress = { print($0) }
Task {
    do {
        let files = try await reader.readDocument(maxDataLengthToRead: chunk)
        print("Challenge: \(files.challenge.map(hex) ?? "none (no access control)")")
        print("CC: \(hex(files.capabilityContainer))")
        print("NDEF file: \(files.ndefFile.count) bytes in \(files.readCommands) READ BINARY")
        guard let message = NFCNDEFMessage(data: Data(files.ndefFile)) else {
            print("Failed: the NDEF file does not hold one message")
            exit(1)
        }
        for record in message.records {
            if let url = record.wellKnownTypeURIPayload() {
                print("URI: \(url.absoluteString)")
            } else {
                print("Record TNF \(record.typeNameFormat.rawValue), \(record.payload.count) bytes")
            }
        }
        exit(0)
    } catch {
        print("Failed: \(error.localizedDescription)")
        exit(1)
    }
}
dispatchMain()
