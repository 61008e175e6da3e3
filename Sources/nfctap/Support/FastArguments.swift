import ArgumentParser

/// The arguments of the two commands that start most often, `scan` (a script's one tap) and
/// `fleet forward` (one process per station), read without swift-argument-parser's parse. That
/// parse reflects on every command of the path and makes the Swift runtime's first conformance
/// look-ups, about 1.6 ms of CPU before `scan` can open its reader (docs/architecture.md
/// "Start-up", "The fast path").
///
/// A vector is read here only when it is plain: the command's words, then its long options
/// (`--name value`, `--name=value`, or `--flag`), each option given once unless it is repeatable,
/// no value that starts with `-`, every value converting, and the command's own `validate()`
/// passing. Anything else returns nil and goes to swift-argument-parser: help, `--version`, short
/// or unknown options, `--`, a missing value, a bad one. Its errors, help and completions stay
/// the only ones.
///
/// The fast path fills the plain values the command runs from (`ScanRequest`,
/// `FleetForwardRequest`) without making the command struct: its property wrappers build a `Set`
/// of names per option, a generic first use that cost a station about 5 % of its CPU. The full
/// parse fills the struct, whose `request` gives the same values, run the same way.
/// `FastArgumentsTests` checks that the two read every vector of a generated corpus alike and
/// that the tables below name every option these commands declare.
///
/// Arrays, not sets or dictionaries: a handful of names, and a `Set<String>` or a dictionary is a
/// generic type whose first use here would cost the look-ups this path exists to avoid.
struct FastArguments {
    /// Long options without a value.
    let flags: [String]
    /// Long options with a value.
    let options: [String]
    /// Options that may be given more than once (their values in order).
    let repeatable: [String]
    /// How many positional arguments the command takes (all required).
    let positionals: Int

    struct Parsed {
        var flags: [String] = []
        /// (option, value) in the order given.
        var values: [(name: String, value: String)] = []
        var positionals: [String] = []

        func flag(_ name: String) -> Bool { flags.contains(name) }

        /// Every value of a repeatable option, in order.
        func all(_ name: String) -> [String] { values.filter { $0.name == name }.map(\.value) }

        private func last(_ name: String) -> String? { values.last { $0.name == name }?.value }

        /// The option's one value converted, `fallback` when absent; nil when it does not convert.
        func value<Value: ExpressibleByArgument>(_ name: String, default fallback: Value) -> Value? {
            guard let text = last(name) else { return fallback }
            return Value(argument: text)
        }

        /// The optional option's value: .some(nil) when absent, nil when it does not convert.
        func optional<Value: ExpressibleByArgument>(_ name: String, as type: Value.Type) -> Value?? {
            guard let text = last(name) else { return .some(nil) }
            return Value(argument: text).map { .some($0) }
        }
    }

    /// The options of `arguments` (after the command's words), or nil when they are not plain.
    func parse(_ arguments: ArraySlice<String>) -> Parsed? {
        var parsed = Parsed()
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else {
                guard !argument.hasPrefix("-"), parsed.positionals.count < positionals else { return nil }
                parsed.positionals.append(argument)
                continue
            }
            let name: String
            var value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
                guard value?.isEmpty == false else { return nil }  // `--name=`: the full parser's "missing value"
            } else {
                name = argument
            }
            if flags.contains(name) {
                guard value == nil, !parsed.flags.contains(name) else { return nil }
                parsed.flags.append(name)
                continue
            }
            guard options.contains(name) else { return nil }
            if value == nil {
                guard index < arguments.endIndex else { return nil }
                value = arguments[index]
                index += 1
            }
            guard let value, !value.hasPrefix("-") else { return nil }
            guard repeatable.contains(name) || !parsed.values.contains(where: { $0.name == name }) else { return nil }
            parsed.values.append((name, value))
        }
        guard parsed.positionals.count == positionals else { return nil }
        return parsed
    }

    /// The command `arguments` (without the program name) runs, when the fast path can read them.
    static func command(_ arguments: [String]) -> FastCommand? {
        switch arguments.first {
        case "scan":
            return ScanRequest(fastArguments: arguments.dropFirst()).map(FastCommand.scan)
        case "fleet" where arguments.count > 1 && arguments[1] == "forward":
            return FleetForwardRequest(fastArguments: arguments.dropFirst(2)).map(FastCommand.fleetForward)
        default:
            return nil
        }
    }
}

/// A command read by the fast path: the plain values the command struct's `request` would give,
/// run the same way.
enum FastCommand: Equatable, Sendable {
    case scan(ScanRequest)
    case fleetForward(FleetForwardRequest)

    func run() async throws {
        switch self {
        case let .scan(request): try await request.run()
        case let .fleetForward(request): try await request.run()
        }
    }
}

extension FastArguments {
    /// The `--reader` values of a plain `scan` (as the fast path reads its options, before any
    /// value is converted), or nil for another command, a vector that is not plain, or `--trace`
    /// (which must see every exchange from the start): what `main` opens ahead (LibNFCOpenAhead).
    /// Should the command then fail to convert a value, it ends with the parser's error and the
    /// devices are closed with the process.
    static func scanReaders(_ arguments: [String]) -> [String]? {
        guard arguments.first == "scan", let parsed = Scan.fastArguments.parse(arguments.dropFirst()),
              !parsed.flag("--trace") else { return nil }
        return parsed.all("--reader")
    }
}

extension ReaderChoice {
    static let fastFlags = ["--trace"]
    static let fastOptions = ["--reader", "--io-timeout"]

    /// Filled from the fast path's reading; nil when a value does not convert or `validate()` fails.
    init?(fast parsed: FastArguments.Parsed) {
        guard let ioTimeout = parsed.value("--io-timeout", default: 5.0) else { return nil }
        self.init(readers: parsed.all("--reader"), trace: parsed.flag("--trace"), ioTimeout: ioTimeout)
        guard (try? validate()) != nil else { return nil }
    }
}

extension Scan {
    static let fastArguments = FastArguments(
        flags: ["--json", "--multi"] + ReaderChoice.fastFlags,
        options: ["--timeout"] + ReaderChoice.fastOptions,
        repeatable: ["--reader"], positionals: 0)
}

extension ScanRequest {
    init?(fastArguments arguments: ArraySlice<String>) {
        guard let parsed = Scan.fastArguments.parse(arguments),
              let reader = ReaderChoice(fast: parsed),
              let timeout = parsed.value("--timeout", default: 60.0) else { return nil }
        self.init(reader: reader, timeout: timeout, json: parsed.flag("--json"), multi: parsed.flag("--multi"))
        guard (try? validate()) != nil else { return nil }
    }
}

extension PublishChoice {
    static let fastFlags = ["--homeassistant"]
    static let fastOptions = ["--publish", "--mqtt-ca", "--homeassistant-prefix"]

    init?(fast parsed: FastArguments.Parsed) {
        guard let url = parsed.optional("--publish", as: String.self),
              let caFile = parsed.optional("--mqtt-ca", as: String.self),
              let prefix = parsed.value("--homeassistant-prefix", default: "homeassistant") else { return nil }
        self.init(url: url, caFile: caFile, homeAssistant: parsed.flag("--homeassistant"), homeAssistantPrefix: prefix)
    }
}

extension FleetForwardCommand {
    static let fastArguments = FastArguments(
        flags: PublishChoice.fastFlags,
        options: ["--status-every", "--ack-timeout", "--retry-max"] + PublishChoice.fastOptions,
        repeatable: [], positionals: 1)
}

extension FleetForwardRequest {
    init?(fastArguments arguments: ArraySlice<String>) {
        guard let parsed = FleetForwardCommand.fastArguments.parse(arguments),
              let publish = PublishChoice(fast: parsed),
              let statusEvery = parsed.value("--status-every", default: 5.0),
              let ackTimeout = parsed.optional("--ack-timeout", as: Double.self),
              let retryMax = parsed.optional("--retry-max", as: Double.self) else { return nil }
        self.init(file: parsed.positionals[0], publish: publish, statusEvery: statusEvery, ackTimeout: ackTimeout, retryMax: retryMax)
        guard (try? validate()) != nil else { return nil }
    }
}
