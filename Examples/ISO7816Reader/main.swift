// Linux scaffolding for ISO7816NDEFReader:
//
//   ISO7816ReaderExample [--time-limit S] [--reader NAME]
//
// Prints each APDU step, then the records. Exit status: 0 read, 1 not (the reason is printed), 2 usage.
import CoreNFCLinux
@preconcurrency import SwiftGlibc  // Swift 6: `stdout` is a C global; the scaffolding sets it up once, first

setvbuf(stdout, nil, _IOLBF, 0)

func usage(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("\(problem)\nusage: ISO7816ReaderExample [--time-limit S] [--reader NAME]\n".utf8))
    exit(2)
}

var configuration = NFCSessionConfiguration.shared
var arguments = Array(CommandLine.arguments.dropFirst())
while let flag = arguments.first {
    arguments.removeFirst()
    guard let value = arguments.first else { usage("\(flag) needs a value") }
    arguments.removeFirst()
    switch flag {
    case "--time-limit":
        guard let seconds = Double(value), seconds >= 0 else { usage("--time-limit takes seconds (0: none)") }
        configuration.timeLimit = seconds == 0 ? nil : .milliseconds(Int(seconds * 1000))
    case "--reader": configuration.readerFilter = .nameContains(value)
    default: usage("unknown option \(flag)")
    }
}
NFCSessionConfiguration.shared = configuration

let reader = ISO7816NDEFReader()
reader.onMessage = { message in
    for record in message.records {
        if let url = record.wellKnownTypeURIPayload() {
            print("URI: \(url.absoluteString)")
        } else {
            print("Record TNF \(record.typeNameFormat.rawValue), \(record.payload.count) bytes")
        }
    }
    exit(0)
}
reader.onFailure = { error in
    print("Failed: \(error.localizedDescription)")
    exit(1)
}
reader.begin()
dispatchMain()
