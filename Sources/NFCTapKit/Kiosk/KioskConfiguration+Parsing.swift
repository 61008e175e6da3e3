import Foundation
import Logging
import Pairing

extension KioskConfiguration {
    /// Every top-level key, for the "unknown key" message.
    package static let knownKeys = ["action", "backends", "bluetooth", "command", "duplicateWindowSeconds", "feedback",
                            "homeassistant", "ioTimeoutSeconds", "logLevel", "output", "pairWith", "publish", "readers", "sync", "timeoutSeconds", "trace"]

    /// `timeoutSeconds`: long enough to start a program (0.1 s), short enough that a stuck one is
    /// noticed (1 h). Anything outside (`1e-9` would round to 0) is refused, naming the key.
    package static let timeoutRange: ClosedRange<Double> = 0.1...3600
    /// `duplicateWindowSeconds` when not 0: the same bounds' spirit, up to a day.
    package static let duplicateWindowRange: ClosedRange<Double> = 0.1...86_400
    /// `ioTimeoutSeconds` when not 0 (no limit): as `--io-timeout`.
    package static let ioTimeoutRange: ClosedRange<Double> = 0.1...86_400

    /// Reads and validates a configuration file.
    /// - Throws: `KioskConfigurationError` naming the file and the setting.
    package static func load(path: String) throws -> KioskConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? "\(error.localizedDescription)"
            throw KioskConfigurationError(source: path, key: nil, problem: "cannot read the file (\(reason))")
        }
        return try parse(data, source: path)
    }

    /// Validates a configuration document.
    /// - Parameter commandExists: decides whether an `exec` program can be found (tests replace it).
    /// - Throws: `KioskConfigurationError` naming `source` and the setting.
    package static func parse(_ data: Data, source: String = "<inline>",
                      commandExists: (String) -> Bool = ProgramLookup.exists) throws -> KioskConfiguration {
        func fail(_ key: String?, _ problem: String) -> KioskConfigurationError {
            KioskConfigurationError(source: source, key: key, problem: problem)
        }
        let root: ConfigJSON
        do {
            root = try JSONDecoder().decode(ConfigJSON.self, from: data)
        } catch {
            throw fail(nil, "not valid JSON (\(Self.describe(error)))")
        }
        guard case let .object(doc) = root else { throw fail(nil, "expected a JSON object, got \(root.kind)") }
        for key in doc.keys.sorted() where !knownKeys.contains(key) {
            throw fail(key, "unknown setting (known: \(knownKeys.joined(separator: ", ")))")
        }
        var c = KioskConfiguration()
        let r = Reader(doc: doc, fail: fail)

        c.readers = try r.strings("readers", nonEmptyItems: true) ?? []
        if let backends = doc["backends"] {
            guard case let .object(b) = backends else { throw fail("backends", "expected an object like {\"pcsc\": true, \"libnfc\": []}, got \(backends.kind)") }
            for key in b.keys.sorted() where key != "pcsc" && key != "libnfc" {
                throw fail("backends.\(key)", "unknown backend (known: pcsc, libnfc)")
            }
            let br = Reader(doc: b, prefix: "backends.", fail: fail)
            c.pcsc = try br.bool("pcsc") ?? true
            c.libnfcDevices = try br.strings("libnfc", nonEmptyItems: true)
            if !c.pcsc, c.libnfcDevices?.isEmpty == true {
                throw fail("backends", "no backend is enabled: set \"pcsc\": true or list libnfc devices")
            }
        }
        c.feedback = try r.bool("feedback") ?? true
        c.sync = try r.bool("sync") ?? true
        c.trace = try r.bool("trace") ?? false
        if let seconds = try r.number("timeoutSeconds") {
            guard Self.timeoutRange.contains(seconds) else {
                throw fail("timeoutSeconds", "must be from \(Self.timeoutRange.lowerBound) to \(Int(Self.timeoutRange.upperBound)) seconds, got \(seconds)")
            }
            c.commandTimeout = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        if let seconds = try r.number("duplicateWindowSeconds") {
            guard seconds == 0 || Self.duplicateWindowRange.contains(seconds) else {
                throw fail("duplicateWindowSeconds", "must be 0 (off) or from \(Self.duplicateWindowRange.lowerBound) to \(Int(Self.duplicateWindowRange.upperBound)) seconds, got \(seconds)")
            }
            c.duplicateWindow = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        if let seconds = try r.number("ioTimeoutSeconds") {
            guard seconds == 0 || Self.ioTimeoutRange.contains(seconds) else {
                throw fail("ioTimeoutSeconds", "must be 0 (no limit) or from \(Self.ioTimeoutRange.lowerBound) to \(Int(Self.ioTimeoutRange.upperBound)) seconds, got \(seconds)")
            }
            c.operationTimeout = seconds == 0 ? nil : .milliseconds(Int64((seconds * 1000).rounded()))
        }
        if let level = try r.string("logLevel") {
            guard let parsed = Logger.Level(rawValue: level) else {
                throw fail("logLevel", "unknown level \"\(level)\" (one of: trace, debug, info, notice, warning, error, critical)")
            }
            c.logLevel = parsed
        }
        if let output = try r.string("output") {
            if output == "-" {
                c.output = .standardOutput
            } else {
                guard output.hasPrefix("/") else { throw fail("output", "must be an absolute path or \"-\" for stdout, got \"\(output)\"") }
                guard !output.hasSuffix("/") else { throw fail("output", "must name a file, not a directory") }
                c.output = .file(output)
            }
        }
        if let bluetooth = doc["bluetooth"] {
            guard case let .object(b) = bluetooth else { throw fail("bluetooth", "expected an object, got \(bluetooth.kind)") }
            for key in b.keys.sorted() where !["adapter", "le", "pin"].contains(key) {
                throw fail("bluetooth.\(key)", "unknown setting (known: adapter, le, pin)")
            }
            let br = Reader(doc: b, prefix: "bluetooth.", fail: fail)
            c.bluetoothAdapter = try br.string("adapter")
            c.bluetoothLE = try br.bool("le") ?? false
            c.bluetoothPIN = try br.string("pin")
        }

        let command = try r.string("command")
        let pairWith = try r.string("pairWith")
        guard let action = try r.string("action") else {
            throw fail("action", "missing: say what to do with each tag (\"json\", \"exec\" or \"pair\")")
        }
        func argv(_ line: String, key: String) throws -> [String] {
            let arguments: [String]
            do {
                arguments = try ExecPairingHandler(commandLine: line).arguments
            } catch {
                throw fail(key, "\(error)")
            }
            guard commandExists(arguments[0]) else {
                throw fail(key, "program not found: \(arguments[0]) (give an absolute path or a name on PATH)")
            }
            return arguments
        }
        switch action {
        case "json":
            c.action = .json
        case "exec":
            guard let command else { throw fail("command", "missing: \"action\": \"exec\" needs the program to run") }
            c.action = .exec(arguments: try argv(command, key: "command"))
        case "pair":
            guard let pairWith else { throw fail("pairWith", "missing: \"action\": \"pair\" needs \"bluez\", \"json\" or \"exec:COMMAND\"") }
            switch pairWith {
            case "bluez": c.action = .pair(.bluez)
            case "json": c.action = .pair(.json)
            case let s where s.hasPrefix("exec:"):
                c.action = .pair(.exec(arguments: try argv(String(s.dropFirst(5)), key: "pairWith")))
            default:
                throw fail("pairWith", "unknown handler \"\(pairWith)\" (one of: bluez, json, exec:COMMAND)")
            }
        default:
            throw fail("action", "unknown action \"\(action)\" (one of: json, exec, pair)")
        }
        if command != nil, action != "exec" { throw fail("command", "only used with \"action\": \"exec\"") }
        if pairWith != nil, action != "pair" { throw fail("pairWith", "only used with \"action\": \"pair\"") }
        if let publish = doc["publish"] { c.publish = try parsePublish(publish, configuration: c, fail: fail) }
        if let homeAssistant = doc["homeassistant"] {
            let discovery = try parseHomeAssistant(homeAssistant, configuration: c, fail: fail)
            c.publish?.homeAssistant = discovery
        }
        return c
    }

    package static func describe(_ error: any Error) -> String {
        if case let DecodingError.dataCorrupted(context) = error {
            return (context.underlyingError as NSError?)?.debugDescription ?? context.debugDescription
        }
        return "\(error)"
    }

    /// Typed access to one object's keys, with messages naming the key.
    package struct Reader {
        package var doc: [String: ConfigJSON]
        package var prefix = ""
        package var fail: (String?, String) -> KioskConfigurationError

        package func bool(_ key: String) throws -> Bool? {
            switch doc[key] {
            case nil, .null?: return nil
            case let .bool(b)?: return b
            case let other?: throw fail(prefix + key, "expected true or false, got \(other.kind)")
            }
        }

        package func number(_ key: String) throws -> Double? {
            switch doc[key] {
            case nil, .null?: return nil
            case let .number(d)?: return d
            case let other?: throw fail(prefix + key, "expected a number of seconds, got \(other.kind)")
            }
        }

        package func string(_ key: String) throws -> String? {
            switch doc[key] {
            case nil, .null?: return nil
            case let .string(s)?:
                guard !s.isEmpty else { throw fail(prefix + key, "must not be empty") }
                guard !s.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                    throw fail(prefix + key, "must not contain control characters")
                }
                return s
            case let other?: throw fail(prefix + key, "expected a string, got \(other.kind)")
            }
        }

        package func strings(_ key: String, nonEmptyItems: Bool) throws -> [String]? {
            switch doc[key] {
            case nil, .null?: return nil
            case let .array(items)?:
                return try items.enumerated().map { i, item in
                    guard case let .string(s) = item else {
                        throw fail("\(prefix)\(key)[\(i)]", "expected a string, got \(item.kind)")
                    }
                    if nonEmptyItems, s.isEmpty { throw fail("\(prefix)\(key)[\(i)]", "must not be empty") }
                    return s
                }
            case let other?: throw fail(prefix + key, "expected an array of strings, got \(other.kind)")
            }
        }
    }
}

/// Finds a program the way posix_spawnp will: a path with a slash as given, else each PATH entry.
package enum ProgramLookup {
    package static func exists(_ name: String) -> Bool { path(for: name) != nil }

    package static func path(for name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let search = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in search.split(separator: ":") where !dir.isEmpty {
            let candidate = "\(dir)/\(name)"
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDir), !isDir.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
        }
        return nil
    }
}
