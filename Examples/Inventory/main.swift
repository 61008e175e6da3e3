// Linux scaffolding for InventoryController:
//
//   InventoryExample [--time-limit S] [--reader NAME] [--kiosk]
//
// Prints one line per tag until Ctrl-C (or the time limit: 60 s unless `--time-limit`, 0 = none).
// `--kiosk`: readers (or pcscd) may go and come back without ending the session.
// Exit status: 0 ended by the user (SIGINT/SIGTERM: the delegate hears 200), 1 any other end
// (the reason is printed), 2 usage. The session's end code goes to stderr.
import CoreNFCLinux
import Foundation
@preconcurrency import SwiftGlibc  // Swift 6: `stdout` is a C global; the scaffolding sets it up once, first

setvbuf(stdout, nil, _IOLBF, 0)
var arguments = Array(CommandLine.arguments.dropFirst())
var configuration = NFCSessionConfiguration.shared

func usage(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("\(problem)\nusage: InventoryExample [--time-limit S] [--reader NAME] [--kiosk]\n".utf8))
    exit(2)
}

while let flag = arguments.first {
    arguments.removeFirst()
    if flag == "--kiosk" {
        configuration.readerRemovalEndsSession = false
        continue
    }
    guard let value = arguments.first else { usage("\(flag) needs a value") }
    arguments.removeFirst()
    switch flag {
    case "--time-limit":
        guard let seconds = Double(value), seconds >= 0 else { usage("--time-limit takes seconds (0: none)") }
        configuration.timeLimit = seconds == 0 ? nil : .milliseconds(Int(seconds * 1000))
    case "--reader":
        configuration.readerFilter = .nameContains(value)
    default:
        usage("unknown option \(flag)")
    }
}
NFCSessionConfiguration.shared = configuration

let controller = InventoryController()
controller.sessionDidEnd = { error in
    let code = (error as? NFCReaderError)?.code ?? .readerErrorUnsupportedFeature
    FileHandle.standardError.write(Data("session ended: NFCError \(code.rawValue)\n".utf8))
    exit(code == .readerSessionInvalidationErrorUserCanceled ? 0 : 1)
}
// Ctrl-C / SIGTERM end the inventory: the delegate hears 200, then sessionDidEnd exits.
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
            guard let session = controller.session else { exit(0) }
            session.invalidate(reason: .signal(number))
        }
    }
    source.resume()
    armed.wait()
    signalSources.append(source)
}
controller.beginScanning()
dispatchMain()
