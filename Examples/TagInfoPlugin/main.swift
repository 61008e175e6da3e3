// Linux scaffolding for NfcTagPlugin: plays the script side of the channel.
//
//   TagInfoPluginExample [--poll iso14443,iso15693,…] [--call "Method key=value …"]… [--time-limit S] [--reader NAME]
//
// Starts a session, prints what the plugin sends back as one JSON line each ("onDiscovered: {…}"
// without the random handle, "Method: result"), runs the --call methods in order on the detected
// tag, then stops the session. Values: x:HEX is bytes, u8:HEX one byte, i:N a number, a,b a list.
// Exit status: 0 a tag was discovered, 1 none (the reason is printed), 2 usage.
import CoreNFCLinux
@preconcurrency import SwiftGlibc  // Swift 6: `stdout` is a C global; the scaffolding sets it up once, first

setvbuf(stdout, nil, _IOLBF, 0)

func usage(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("""
        \(problem)
        usage: TagInfoPluginExample [--poll iso14443,…] [--call "Method key=value …"]… [--time-limit S] [--reader NAME]

        """.utf8))
    exit(2)
}

func hexBytes(_ text: String) -> Data? {
    guard text.count % 2 == 0 else { return nil }
    var data = Data()
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
        data.append(byte)
        index = next
    }
    return data
}

func argumentValue(_ text: String) -> Any? {
    if text.hasPrefix("x:") { return hexBytes(String(text.dropFirst(2))) }
    if text.hasPrefix("u8:") { return UInt8(text.dropFirst(3), radix: 16) }
    if text.hasPrefix("i:") { return Int(text.dropFirst(2)) }
    if text.contains(",") { return text.split(separator: ",").map(String.init) }
    return text
}

/// JSON-safe form: bytes as hex, nil as null, errors as {"error": code, …}.
func plain(_ value: Any?) -> Any {
    switch value {
    case nil: return NSNull()
    case let data as Data: return data.map { String(format: "%02X", $0) }.joined()
    case let error as FlutterError: return ["error": error.code, "message": plain(error.message), "details": plain(error.details)]
    case let map as [String: Any?]: return map.mapValues(plain)
    case let map as [String: Any]: return map.mapValues { plain($0) }
    case let list as [Any?]: return list.map(plain)
    case let number as UInt8: return Int(number)
    case let number as UInt: return Int(number)
    case let .some(wrapped):
        // An optional inside `Any` (a `Data?` property stored as `Any`): unwrap it.
        let mirror = Mirror(reflecting: wrapped)
        if mirror.displayStyle == .optional { return mirror.children.first.map { plain($0.value) } ?? NSNull() }
        return wrapped
    }
}

func emit(_ name: String, _ value: Any?) {
    let object = plain(value)
    if JSONSerialization.isValidJSONObject([object]),
       let data = try? JSONSerialization.data(withJSONObject: [object], options: [.sortedKeys, .fragmentsAllowed]),
       let text = String(data: data, encoding: .utf8) {
        print("\(name): \(text.dropFirst().dropLast())")
    } else {
        print("\(name): \(object)")
    }
}

var configuration = NFCSessionConfiguration.shared
var pollingOptions = ["iso14443"]
var calls: [(String, [String: Any?])] = []
var arguments = Array(CommandLine.arguments.dropFirst())
while let flag = arguments.first {
    arguments.removeFirst()
    guard let value = arguments.first else { usage("\(flag) needs a value") }
    arguments.removeFirst()
    switch flag {
    case "--poll": pollingOptions = value.split(separator: ",").map(String.init)
    case "--call":
        let words = value.split(separator: " ").map(String.init)
        guard let method = words.first, method.contains("#") else { usage("--call takes \"Family#method key=value …\"") }
        var callArguments: [String: Any?] = [:]
        for word in words.dropFirst() {
            guard let equals = word.firstIndex(of: "="), let parsed = argumentValue(String(word[word.index(after: equals)...])) else {
                usage("bad argument \(word) (x:HEX, u8:HEX, i:N, a,b or text)")
            }
            callArguments[String(word[..<equals])] = parsed
        }
        calls.append((method, callArguments))
    case "--time-limit":
        guard let seconds = Double(value), seconds >= 0 else { usage("--time-limit takes seconds (0: none)") }
        configuration.timeLimit = seconds == 0 ? nil : .milliseconds(Int(seconds * 1000))
    case "--reader": configuration.readerFilter = .nameContains(value)
    default: usage("unknown option \(flag)")
    }
}
NFCSessionConfiguration.shared = configuration

// The script side runs on the main queue, where the plugin answers (as Flutter's platform thread).
let plugin = NfcTagPlugin()
var discovered = false

/// Runs the --call methods one after another, then stops the session.
@MainActor
func runCalls(_ remaining: ArraySlice<(String, [String: Any?])>, handle: String) {
    guard let (method, callArguments) = remaining.first else {
        plugin.handle("Nfc#stopSession", ["alertMessage": "Done."]) { _ in }
        return
    }
    plugin.handle(method, callArguments.merging(["handle": handle]) { current, _ in current }) { result in
        emit(method, result)
        runCalls(remaining.dropFirst(), handle: handle)
    }
}

plugin.invokeMethod = { method, arguments in
    switch method {
    case "onDiscovered":
        var data = arguments as? [String: Any?] ?? [:]
        let handle = data.removeValue(forKey: "handle") as? String ?? ""
        discovered = true
        emit(method, data)
        runCalls(calls[...], handle: handle)
    case "onError":
        emit(method, arguments)
        exit(discovered ? 0 : 1)
    default:
        emit(method, arguments)
    }
}
plugin.handle("Nfc#isAvailable", [:]) { emit("Nfc#isAvailable", $0) }
plugin.handle("Nfc#startSession", ["pollingOptions": pollingOptions, "alertMessage": "Hold a tag near the reader."]) { _ in }
dispatchMain()
