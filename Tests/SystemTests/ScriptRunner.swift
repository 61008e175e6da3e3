import Foundation

/// Runs a program from the repository's scripts (or any program) and collects what it printed.
func runProgram(_ path: String, _ args: [String], environment extra: [String: String] = [:],
                currentDirectory: URL = SystemEnvironment.packageRoot) throws -> CLIResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = args
    process.currentDirectoryURL = currentDirectory
    var env = ProcessInfo.processInfo.environment
    for (k, v) in extra { env[k] = v }
    process.environment = env
    // stderr goes to a file: with two pipes, a full stderr pipe could stall the program while
    // stdout is being read.
    let errFile = FileManager.default.temporaryDirectory.appendingPathComponent("nfctap-stderr-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errFile) }
    let err = try FileHandle(forWritingTo: errFile)
    let out = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    try? err.close()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let errData = (try? Data(contentsOf: errFile)) ?? Data()
    return CLIResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                     stderr: String(decoding: errData, as: UTF8.self))
}
