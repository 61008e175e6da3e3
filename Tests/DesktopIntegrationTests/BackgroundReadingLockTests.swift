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

    /// The agent's inotify watch: a session taking and releasing its hold each make the watch's
    /// descriptor readable with a `session.lock` event; the agent's own tests raise none.
    @Test func theWatchSeesHoldsComeAndGoWithoutFeedingItself() throws {
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let watch = try #require(NFCBackgroundReading.SessionWatch(environment: environment))
        _ = watch.drainEvents()
        #expect(!watch.sessionIsActive())
        #expect(!Self.readable(watch.fileDescriptor, within: 200))      // testing is silent
        #expect(!watch.drainEvents())

        let session = try #require(NFCBackgroundReading.holdForSession(environment: environment))
        #expect(Self.readable(watch.fileDescriptor, within: 1000))
        #expect(watch.drainEvents())
        #expect(watch.sessionIsActive())
        #expect(!Self.readable(watch.fileDescriptor, within: 200))
        // The agent's own agent.lock comes and goes: events, but not about session.lock.
        NFCBackgroundReading.holdForAgent(environment: environment)?.release()
        #expect(!watch.drainEvents())

        session.release()
        #expect(Self.readable(watch.fileDescriptor, within: 1000))
        #expect(watch.drainEvents())
        #expect(!watch.sessionIsActive())                               // unlocked before the close event
    }

    /// A replaced lock file (deleted, made again by the next session) is followed.
    @Test func theWatchFollowsAReplacedLockFile() throws {
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let watch = try #require(NFCBackgroundReading.SessionWatch(environment: environment))
        unlink(runtime + "/nfctap/session.lock")
        let session = try #require(NFCBackgroundReading.holdForSession(environment: environment))
        #expect(watch.drainEvents())
        #expect(watch.sessionIsActive())
        session.release()
        #expect(watch.drainEvents())
        #expect(!watch.sessionIsActive())
    }

    @Test func inotifyRecordsAreParsedWithinBounds() {
        func record(_ mask: UInt32, _ name: String, padTo: Int) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: 16)
            withUnsafeBytes(of: mask.littleEndian) { bytes.replaceSubrange(4..<8, with: $0) }
            withUnsafeBytes(of: UInt32(padTo).littleEndian) { bytes.replaceSubrange(12..<16, with: $0) }
            return bytes + Array(name.utf8) + [UInt8](repeating: 0, count: padTo - name.utf8.count)
        }
        let two = record(UInt32(IN_CLOSE_NOWRITE), "agent.lock", padTo: 16) + record(UInt32(IN_ATTRIB), "session.lock", padTo: 16)
        var names: [String] = []
        let relevant = two.withUnsafeBytes { NFCBackgroundReading.SessionWatch.parse($0) { names.append($1); return $1 == "session.lock" } }
        #expect(relevant && names == ["agent.lock", "session.lock"])
        // A record whose name runs past the end of the read is not looked at.
        let cut = Array(record(UInt32(IN_ATTRIB), "session.lock", padTo: 16).prefix(24))
        #expect(!cut.withUnsafeBytes { NFCBackgroundReading.SessionWatch.parse($0) { _, _ in true } })
    }

    static func readable(_ fd: Int32, within milliseconds: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, milliseconds) == 1
    }

    @Test func noRuntimeDirectoryMeansNoCoordination() {
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        #expect(NFCBackgroundReading.directory(environment: [:]) == nil)
        #expect(NFCBackgroundReading.holdForSession(environment: ["XDG_RUNTIME_DIR": "relative"]) == nil)
        #expect(!NFCBackgroundReading.sessionIsActive(environment: [:]))
    }
}
