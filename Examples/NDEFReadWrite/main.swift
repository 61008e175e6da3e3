// Linux scaffolding for NDEFReadWriteController (the part an iOS app has in its UI):
//
//   NDEFReadWriteExample [options]                   read one tag, print its records
//   NDEFReadWriteExample [options] write URI [TEXT]  write a URI (+ English text) record
//
// Options (NFCSessionConfiguration.shared): --time-limit S (0: none), --reader NAME,
// --batch-window MS (tags arriving within it count as detected together; default 100).
//
// Exit status: 0 the read or write completed, 1 it did not (the reason is printed), 2 usage,
// 130 interrupted (SIGINT/SIGTERM end the session with 200). The last stderr line names the code
// the session ended with.
import CoreNFCLinux
import Foundation
@preconcurrency import SwiftGlibc  // Swift 6: `stdout` is a C global; the scaffolding sets it up once, first

setvbuf(stdout, nil, _IOLBF, 0)
var arguments = Array(CommandLine.arguments.dropFirst())
var configuration = NFCSessionConfiguration.shared

func usage(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("\(problem)\nusage: NDEFReadWriteExample [--time-limit S] [--reader NAME] [--batch-window MS] [write URI [TEXT]]\n".utf8))
    exit(2)
}

while let flag = arguments.first, flag.hasPrefix("--") {
    arguments.removeFirst()
    guard let value = arguments.first else { usage("\(flag) needs a value") }
    arguments.removeFirst()
    switch flag {
    case "--time-limit":
        guard let seconds = Double(value), seconds >= 0 else { usage("--time-limit takes seconds (0: none)") }
        configuration.timeLimit = seconds == 0 ? nil : .milliseconds(Int(seconds * 1000))
    case "--reader":
        configuration.readerFilter = .nameContains(value)
    case "--batch-window":
        guard let ms = Int(value), ms >= 0 else { usage("--batch-window takes milliseconds") }
        configuration.batchWindow = .milliseconds(ms)
    default:
        usage("unknown option \(flag)")
    }
}
NFCSessionConfiguration.shared = configuration

let mode: NDEFReadWriteController.Mode
switch arguments.first {
case nil:
    mode = .read
case "write"?:
    guard arguments.count == 2 || arguments.count == 3,
          let uri = NFCNDEFPayload.wellKnownTypeURIPayload(string: arguments[1]) else { usage("write needs a URI") }
    var records = [uri]
    if arguments.count == 3 {
        guard let text = NFCNDEFPayload.wellKnownTypeTextPayload(string: arguments[2], locale: Locale(identifier: "en")) else {
            usage("the text cannot be encoded")
        }
        records.append(text)
    }
    mode = .write(NFCNDEFMessage(records: records))
default:
    usage("unknown command \(arguments[0])")
}

let controller = NDEFReadWriteController(mode: mode)
var interrupted = false  // set by the signal handler; everything here runs on the main queue
controller.sessionDidEnd = { error in
    let code = (error as? NFCReaderError)?.code.rawValue ?? -1
    FileHandle.standardError.write(Data("session ended: NFCError \(code)\n".utf8))
    exit(controller.completedRecords != nil ? 0 : interrupted ? 130 : 1)
}

// Ctrl-C / SIGTERM: end the session (the delegate hears 200), then exit from sessionDidEnd.
// Armed before the session begins (a test sends SIGTERM as soon as the prompt shows): libdispatch
// registers a signal source on its own thread after `resume()`, and a signal sent before that
// (SIG_IGN meanwhile) is lost. So the sources have a queue of their own, this waits for their
// registration, and the handler hops to the main queue, where the controller lives.
let signalQueue = DispatchQueue(label: "signals")
var signalSources: [DispatchSourceSignal] = []
for number in [SIGINT, SIGTERM] {
    signal(number, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: number, queue: signalQueue)
    let armed = DispatchSemaphore(value: 0)
    source.setRegistrationHandler { armed.signal() }
    source.setEventHandler {
        DispatchQueue.main.async {
            interrupted = true
            guard let session = controller.session else { exit(130) }
            session.invalidate(reason: .signal(number))
        }
    }
    source.resume()
    armed.wait()
    signalSources.append(source)
}
controller.beginScanning()
dispatchMain()

