// Linux scaffolding for TagReaderController:
//
//   TagReaderExample [--time-limit S] [--reader NAME] [--batch-window MS]
//
// --batch-window: tags arriving within it count as detected together (default 100 ms).
//
// Exit status: 0 the command was answered, 1 it was not (the reason is printed), 2 usage,
// 130 interrupted (SIGINT/SIGTERM end the session with 200). The session's end code goes to stderr.
import CoreNFCLinux
import Foundation
@preconcurrency import SwiftGlibc  // Swift 6: `stdout` is a C global; the scaffolding sets it up once, first

setvbuf(stdout, nil, _IOLBF, 0)
var arguments = Array(CommandLine.arguments.dropFirst())
var configuration = NFCSessionConfiguration.shared

func usage(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("\(problem)\nusage: TagReaderExample [--time-limit S] [--reader NAME] [--batch-window MS]\n".utf8))
    exit(2)
}

while let flag = arguments.first {
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

/// Set by the signal handler; the controller and both handlers run on the main queue.
var interrupted = false
let controller = TagReaderController()
controller.sessionDidEnd = { error in
    let code = (error as? NFCReaderError)?.code.rawValue ?? -1
    FileHandle.standardError.write(Data("session ended: NFCError \(code)\n".utf8))
    exit(controller.completed ? 0 : interrupted ? 130 : 1)
}
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
