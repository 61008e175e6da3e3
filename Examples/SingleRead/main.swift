// Linux scaffolding for SingleReadController:
//
//   SingleReadExample [--time-limit S] [--reader NAME] [--sessions N]
//
// Reads one tag and prints its records. `--sessions 2` begins a second controller's session while
// the first is active, as an app that forgot one would: the second ends with 203.
// Exit status: 0 a message was read, 1 none was (the reason is printed), 2 usage, 130 interrupted
// (SIGINT/SIGTERM end the sessions with 200). Each session's end code goes to stderr.
import CoreNFCLinux
import Foundation
@preconcurrency import SwiftGlibc  // Swift 6: `stdout` is a C global; the scaffolding sets it up once, first

setvbuf(stdout, nil, _IOLBF, 0)
var arguments = Array(CommandLine.arguments.dropFirst())
var configuration = NFCSessionConfiguration.shared
var sessionCount = 1

func usage(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("\(problem)\nusage: SingleReadExample [--time-limit S] [--reader NAME] [--sessions N]\n".utf8))
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
    case "--sessions":
        guard let n = Int(value), (1...4).contains(n) else { usage("--sessions takes 1 to 4") }
        sessionCount = n
    default:
        usage("unknown option \(flag)")
    }
}
NFCSessionConfiguration.shared = configuration

/// Session ends, counted on the main queue (where every session delivers and the signals arrive).
struct Ending {
    private var ended = 0
    private var readAny = false
    private(set) var interrupted = false

    mutating func interrupt() { interrupted = true }

    /// Records one end; the exit status once every session has ended, else nil.
    mutating func sessionEnded(of total: Int, read: Bool) -> Int32? {
        ended += 1
        readAny = readAny || read
        guard ended == total else { return nil }
        return readAny ? 0 : interrupted ? 130 : 1
    }
}

var ending = Ending()
let controllers = (0..<sessionCount).map { _ in SingleReadController() }
for (index, controller) in controllers.enumerated() {
    controller.sessionDidEnd = { error in
        let code = (error as? NFCReaderError)?.code.rawValue ?? -1
        FileHandle.standardError.write(Data("session \(index + 1) ended: NFCError \(code)\n".utf8))
        if let status = ending.sessionEnded(of: controllers.count, read: !controller.detectedMessages.isEmpty) {
            exit(status)
        }
    }
}
// Ctrl-C / SIGTERM: end the sessions (the delegates hear 200), then exit when the last has ended.
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
            ending.interrupt()
            for session in controllers.compactMap(\.session) { session.invalidate(reason: .signal(number)) }
        }
    }
    source.resume()
    armed.wait()
    signalSources.append(source)
}
for controller in controllers { controller.beginScanning() }
dispatchMain()
