import Foundation
import Glibc
import Testing
@testable import CoreNFCLinux

/// The cross-process signal between sessions and `nfctap agent` (flock on two files). flock locks
/// belong to open file descriptions, so two opens in one process conflict as two processes do.
@Suite struct BackgroundReadingLockTests {
    let runtime: String
    var environment: [String: String] { ["XDG_RUNTIME_DIR": runtime] }

    init() throws {
        runtime = NSTemporaryDirectory() + "nfctap-lock-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
    }

    @Test func aSessionHoldIsSeenUntilReleased() throws {
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        #expect(!NFCBackgroundReading.sessionIsActive(environment: environment))
        let first = try #require(NFCBackgroundReading.holdForSession(environment: environment))
        let second = try #require(NFCBackgroundReading.holdForSession(environment: environment))  // shared: both
        #expect(NFCBackgroundReading.sessionIsActive(environment: environment))
        first.release()
        #expect(NFCBackgroundReading.sessionIsActive(environment: environment))
        second.release()
        #expect(!NFCBackgroundReading.sessionIsActive(environment: environment))
        var st = stat()
        #expect(stat(runtime + "/nfctap", &st) == 0 && st.st_mode & 0o777 == 0o700)
    }

    @Test func aStartingSessionWaitsForTheAgentToLetGo() throws {
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let agent = try #require(NFCBackgroundReading.holdForAgent(environment: environment))
        let released = Date().addingTimeInterval(0.4)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.4) { agent.release() }
        let start = Date()
        let session = NFCBackgroundReading.holdForSession(environment: environment)
        #expect(session != nil)
        #expect(Date() >= released.addingTimeInterval(-0.05))          // waited for the release
        #expect(Date().timeIntervalSince(start) < 2.5)                 // and not for the whole hand-over time
        withExtendedLifetime(session) {}
    }

    @Test func noRuntimeDirectoryMeansNoCoordination() {
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        #expect(NFCBackgroundReading.directory(environment: [:]) == nil)
        #expect(NFCBackgroundReading.holdForSession(environment: ["XDG_RUNTIME_DIR": "relative"]) == nil)
        #expect(!NFCBackgroundReading.sessionIsActive(environment: [:]))
    }
}
