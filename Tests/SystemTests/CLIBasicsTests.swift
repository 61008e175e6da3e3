import Foundation
import Testing

@Suite struct CLIBasicsTests {
    @Test func versionAndHelp() throws {
        let v = try runCLI(["--version"])
        #expect(v.status == 0)
        #expect(v.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
        let h = try runCLI(["--help"])
        #expect(h.status == 0)
        #expect(h.stdout.contains("Exit codes"))
    }
    @Test func unknownSubcommandIsAUsageError() throws {
        let r = try runCLI(["no-such-command"])
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
    }
}
