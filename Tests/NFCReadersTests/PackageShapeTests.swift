import Foundation
import Testing

/// Ring 1 for the module shape (docs/architecture.md): the reader model and the tag emulator link
/// no C library. A dependency added to ReaderCore or TagEmulation in Package.swift that reaches
/// pcsc-lite, libnfc, sd-bus or mosquitto, directly or through another target, fails here.
@Suite("Package shape: ReaderCore and TagEmulation stay pure")
struct PackageShapeTests {
    static let backendTargets: Set<String> = ["CPCSCLite", "CLibNFC", "CLazyLibrary", "CSDBus", "CMosquitto", "PCSC", "LibNFC", "MQTT", "NFCReaders"]

    @Test("ReaderCore and TagEmulation reach no C library or backend target", arguments: ["ReaderCore", "TagEmulation"])
    func pureTarget(name: String) throws {
        let graph = try PackageGraph.current()
        let reached = try graph.transitiveDependencies(of: name)
        #expect(reached.isDisjoint(with: Self.backendTargets), "\(name) reaches \(reached.intersection(Self.backendTargets).sorted())")
        // The walk itself works: the pure modules it must find are there.
        #expect(reached.isSuperset(of: ["NFCTags", "NDEF"]), "\(name) reaches \(reached.sorted())")
    }

    @Test("TagEmulation builds on ReaderCore, and NFCReaders keeps the backends")
    func layering() throws {
        let graph = try PackageGraph.current()
        #expect(try graph.transitiveDependencies(of: "TagEmulation").contains("ReaderCore"))
        let readers = try graph.transitiveDependencies(of: "NFCReaders")
        #expect(readers.isSuperset(of: ["ReaderCore", "PCSC", "LibNFC", "CPCSCLite", "CLibNFC"]))
    }
}

/// Target names and their direct dependencies, from `swift package dump-package`.
struct PackageGraph {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var dependencies: [String: [String]]

    /// The package this file belongs to (found from its own path), as SwiftPM reads Package.swift.
    static func current(filePath: String = #filePath) throws -> PackageGraph {
        var root = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            guard root.path != "/" else { throw Failure(description: "no Package.swift above \(filePath)") }
            root.deleteLastPathComponent()
        }
        return try PackageGraph(json: dumpPackage(at: root))
    }

    init(json: Data) throws {
        guard let package = try JSONSerialization.jsonObject(with: json) as? [String: Any],
              let targets = package["targets"] as? [[String: Any]] else {
            throw Failure(description: "dump-package output has no targets")
        }
        var dependencies: [String: [String]] = [:]
        for target in targets {
            guard let name = target["name"] as? String else { throw Failure(description: "a target without a name") }
            let entries = target["dependencies"] as? [[String: Any]] ?? []
            // Each entry is {"byName"|"target"|"product": [name, …]}; products are other packages'.
            dependencies[name] = entries.compactMap { entry in
                (entry["byName"] ?? entry["target"]).flatMap { ($0 as? [Any])?.first as? String }
            }
        }
        self.dependencies = dependencies
    }

    /// Every target `name` depends on, directly or not.
    func transitiveDependencies(of name: String) throws -> Set<String> {
        guard dependencies[name] != nil else { throw Failure(description: "Package.swift has no target \(name)") }
        var reached: Set<String> = []
        var pending = dependencies[name] ?? []
        while let next = pending.popLast() {
            guard reached.insert(next).inserted else { continue }
            pending += dependencies[next] ?? []
        }
        return reached
    }

    /// `swift package dump-package` in `root`: the `swift` that runs these tests (on PATH), else the toolchain's.
    static func dumpPackage(at root: URL) throws -> Data {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { "\($0)/swift" } + ["/opt/swift/usr/bin/swift", "/usr/bin/swift"]
        guard let swift = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Failure(description: "no swift executable on PATH")
        }
        // A scratch path of its own: the package's .build is locked by the `swift test` running us.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-shape-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: swift)
        process.arguments = ["package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Never hang the ring: a manifest that takes a minute to evaluate is a failure.
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        defer { watchdog.cancel() }
        // Read before waiting: the JSON is larger than a pipe's buffer.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "swift package dump-package exited \(process.terminationStatus): "
                          + String(decoding: message, as: UTF8.self))
        }
        return data
    }
}
