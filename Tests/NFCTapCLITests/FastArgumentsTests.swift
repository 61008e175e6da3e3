import ArgumentParser
import Foundation
import Testing
import TestSupport
@testable import nfctap

/// `FastArguments`, the plain-vector path of `scan` and `fleet forward`, against
/// swift-argument-parser on the same vectors: either the fast path declines (and the full parser
/// decides, errors and help included) or both give the same command with the same values (the
/// fast path's request equals the parsed struct's `request`, which is what the struct runs).
@Suite struct FastArgumentsTests {
    /// What the full parse of `arguments` runs, as the fast path would give it; nil for another command.
    static func request(_ command: any ParsableCommand) -> FastCommand? {
        if let scan = command as? Scan { return .scan(scan.request) }
        if let forward = command as? FleetForwardCommand { return .fleetForward(forward.request) }
        return nil
    }

    /// Compares the two parsers on `arguments`; whether the fast path read them.
    @discardableResult
    static func compare(_ arguments: [String]) -> Bool {
        let full = Result { try NFCTap.parseAsRoot(arguments) }
        guard let fast = FastArguments.command(arguments) else { return false }
        switch full {
        case .success(let command):
            #expect(request(command) == fast, "\(arguments)")
        case .failure(let error):
            Issue.record("the fast path read \(arguments), which swift-argument-parser refuses: \(NFCTap.fullMessage(for: error))")
        }
        return true
    }

    @Test("the benchmark's and the README's command lines take the fast path, with the parser's result")
    func knownLines() {
        for line in [
            ["scan", "--json", "--timeout", "10", "--reader", "libnfc:pn532_uart:/dev/pts/0"],
            ["scan"], ["scan", "--multi", "--json"], ["scan", "--reader=ACR122", "--reader", "libnfc:pn532_uart:/dev/ttyUSB0", "--trace"],
            ["fleet", "forward", "/var/lib/nfctap/taps.jsonl", "--publish", "mqtt://127.0.0.1:1883/bench/s1"],
            ["fleet", "forward", "--publish=mqtts://u:p@broker:8883/a/b", "--mqtt-ca", "/etc/ca.pem", "taps.jsonl", "--status-every", "1",
             "--ack-timeout", "1", "--retry-max", "0.5", "--homeassistant", "--homeassistant-prefix", "ha"],
        ] {
            #expect(Self.compare(line), "not on the fast path: \(line)")
        }
        // The values themselves, not only the two parsers' agreement.
        #expect(FastArguments.command(["scan", "--json", "--timeout", "10", "--reader", "libnfc:pn532_uart:/dev/pts/0"])
                == .scan(ScanRequest(reader: ReaderChoice(readers: ["libnfc:pn532_uart:/dev/pts/0"]), timeout: 10, json: true)))
        #expect(FastArguments.command(["fleet", "forward", "t.jsonl", "--publish", "mqtt://h/t", "--retry-max", "0.5", "--homeassistant"])
                == .fleetForward(FleetForwardRequest(file: "t.jsonl", publish: PublishChoice(url: "mqtt://h/t", homeAssistant: true), retryMax: 0.5)))
    }

    @Test("what only swift-argument-parser may answer never takes the fast path", arguments: [
        ["scan", "--help"], ["scan", "-h"], ["--version"], ["scan", "--version"], ["scan", "--jso"], ["scan", "--json=1"],
        ["scan", "--json", "--json"], ["scan", "--timeout", "1", "--timeout", "2"], ["scan", "--timeout"], ["scan", "--timeout", "-1"],
        ["scan", "--timeout", "abc"], ["scan", "--timeout", "nan"], ["scan", "--io-timeout", "0.05"], ["scan", "extra"], ["scan", "--"],
        ["scan", "--experimental-dump-help"], ["scan", "--generate-completion-script", "bash"], ["scan", "—json"], ["help", "scan"],
        ["fleet", "forward", "taps.jsonl"], ["fleet", "forward", "--publish", "mqtt://h/t"], ["fleet", "forward", "-", "--publish", "mqtt://h/t"],
        ["fleet", "forward", "a", "b", "--publish", "mqtt://h/t"], ["fleet", "forward", "a", "--publish", "mqtt://h/t", "--status-every", "0"],
        ["fleet", "status", "a"], ["fleet"], [],
    ])
    func declined(arguments: [String]) {
        #expect(FastArguments.command(arguments) == nil)
    }

    @Test("a generated corpus: every vector the fast path reads, swift-argument-parser reads the same way")
    func corpus() {
        var generator = SplitMix64(seed: 0x6661_7374)
        let scanPool = Pool(
            flags: ["--json", "--multi", "--trace"],
            options: ["--timeout": ["5", "0", "2.5", "1e2", "-1", "abc", "inf", "nan", "", " 5", "60"],
                      "--io-timeout": ["0", "0.05", "0.1", "5", "86400", "86401", "x"],
                      "--reader": ["ACR122", "libnfc:pn532_uart:/dev/pts/3", "", "--json", "Virtual PCD 00 00", "a=b"]],
            positionals: ["x", "-", "taps.jsonl"])
        let forwardPool = Pool(
            flags: ["--homeassistant"],
            options: ["--publish": ["mqtt://127.0.0.1/t", "mqtts://u:p@h:8883/a/b", "", "x", "-q"],
                      "--mqtt-ca": ["/etc/ca.pem", ""], "--homeassistant-prefix": ["ha", "", "homeassistant"],
                      "--status-every": ["1", "0.05", "0.1", "86400", "86401", "nan"],
                      "--ack-timeout": ["1", "0.01", "3600", "3601"], "--retry-max": ["0.5", "7200"]],
            positionals: ["taps.jsonl", "/var/lib/nfctap/t.jsonl", "-", "a b.jsonl", "--"])
        let noise = ["--help", "-h", "--version", "--jso", "--json=1", "--", "-j", "--foo", "--timeout", "--experimental-dump-help",
                     "—json", "--reader=", "--timeout=7", "--publish=mqtt://h/t", "-", "--homeassistant=true"]
        var read = (scan: 0, forward: 0)
        for _ in 0..<2_500 {
            let forward = generator.next() % 2 == 0
            let pool = forward ? forwardPool : scanPool
            var arguments = forward ? ["fleet", "forward"] : ["scan"]
            for _ in 0..<Int(generator.next() % 6) {
                switch generator.next() % 10 {
                case 0..<3:
                    arguments.append(pool.flags.randomElement(using: &generator)!)
                case 3..<7:
                    let (name, values) = pool.options.randomElement(using: &generator)!
                    let value = values.randomElement(using: &generator)!
                    arguments += generator.next() % 3 == 0 ? ["\(name)=\(value)"] : [name, value]
                case 7..<9:
                    arguments.append(pool.positionals.randomElement(using: &generator)!)
                default:
                    arguments.insert(noise.randomElement(using: &generator)!, at: 1 + Int(generator.next() % UInt64(arguments.count)))
                }
            }
            if forward, generator.next() % 2 == 0 {  // most forward vectors need --publish and a file to be valid at all
                arguments += ["--publish", "mqtt://127.0.0.1:1883/t", "taps.jsonl"]
            }
            if Self.compare(arguments) {
                if forward { read.forward += 1 } else { read.scan += 1 }
            }
        }
        // The corpus reaches the fast path often enough for the comparison to mean something.
        #expect(read.scan > 200 && read.forward > 100, "\(read)")
    }

    @Test("the fast path's tables name exactly the options each command declares", arguments: [
        (["scan"], Scan.fastArguments),
        (["fleet", "forward"], FleetForwardCommand.fastArguments),
    ] as [([String], FastArguments)])
    func tablesCoverDeclarations(path: [String], table: FastArguments) throws {
        let declared = try Self.declaredOptions(path)
        #expect(Set(declared.flags) == Set(table.flags) && declared.flags.count == table.flags.count, "flags")
        #expect(Set(declared.options) == Set(table.options) && declared.options.count == table.options.count, "options")
        #expect(Set(declared.repeating) == Set(table.repeatable), "repeatable")
        #expect(declared.positionals == table.positionals, "positionals")
    }

    /// The command's arguments as swift-argument-parser describes them (`--experimental-dump-help`):
    /// long names of flags and options, without the built-in --help and --version.
    static func declaredOptions(_ path: [String]) throws -> (flags: [String], options: [String], repeating: [String], positionals: Int) {
        var dumpError: (any Error)?
        do { _ = try NFCTap.parseAsRoot(path + ["--experimental-dump-help"]) } catch { dumpError = error }
        let json = NFCTap.fullMessage(for: try #require(dumpError))
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        // The dump describes the last command of the path.
        let command = try #require(root["command"] as? [String: Any])
        #expect(command["commandName"] as? String == path.last)
        var result: (flags: [String], options: [String], repeating: [String], positionals: Int) = ([], [], [], 0)
        for argument in command["arguments"] as? [[String: Any]] ?? [] {
            let names = (argument["names"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "long" }.compactMap { $0["name"] as? String }
            let kind = argument["kind"] as? String
            if kind == "positional" { result.positionals += 1; continue }
            for name in names where name != "help" && name != "version" {
                if kind == "flag" { result.flags.append("--" + name) } else { result.options.append("--" + name) }
                if kind == "option", argument["isRepeating"] as? Bool == true { result.repeating.append("--" + name) }
            }
        }
        return result
    }
}

struct Pool {
    let flags: [String]
    let options: [String: [String]]
    let positionals: [String]
}
