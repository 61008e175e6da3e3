// Linux scaffolding for UltralightWriter:
//
//   UltralightRawExample URL [--time-limit S] [--reader NAME]
//
// Writes a URI record onto an NTAG / Ultralight page by page. Exit status: 0 written and
// verified, 1 not (the reason is printed), 2 usage.
import CoreNFCLinux
@preconcurrency import SwiftGlibc  // Swift 6: `stdout` is a C global; the scaffolding sets it up once, first

setvbuf(stdout, nil, _IOLBF, 0)

func usage(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("\(problem)\nusage: UltralightRawExample URL [--time-limit S] [--reader NAME]\n".utf8))
    exit(2)
}

var target: URL?
var configuration = NFCSessionConfiguration.shared
var arguments = Array(CommandLine.arguments.dropFirst())
while let argument = arguments.first {
    arguments.removeFirst()
    switch argument {
    case "--time-limit", "--reader":
        guard let value = arguments.first else { usage("\(argument) needs a value") }
        arguments.removeFirst()
        if argument == "--reader" {
            configuration.readerFilter = .nameContains(value)
        } else {
            guard let seconds = Double(value), seconds >= 0 else { usage("--time-limit takes seconds (0: none)") }
            configuration.timeLimit = seconds == 0 ? nil : .milliseconds(Int(seconds * 1000))
        }
    default:
        guard target == nil, let url = URL(string: argument), url.scheme != nil else { usage("expected one URL, got \(argument)") }
        target = url
    }
}
guard let url = target else { usage("which URL to write?") }
NFCSessionConfiguration.shared = configuration

let writer = UltralightWriter(url: url)
writer.onDone = { result in
    switch result {
    case .success: exit(0)
    case let .failure(error):
        print("Failed: \(error.localizedDescription)")
        exit(1)
    }
}
writer.begin()
dispatchMain()
