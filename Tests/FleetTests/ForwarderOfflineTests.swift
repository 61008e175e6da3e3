import Foundation
import Testing
@testable import Fleet
import Synchronization
import TestSupport

/// The forwarder with no broker to reach: records wait, the position file is made first, the
/// status says why, without the password.
@Suite struct ForwarderOfflineTests {
    /// A loopback port nothing listens on (bound, then closed).
    static func closedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p -> Int32 in
                _ = bind(fd, p, length)
                return getsockname(fd, p, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func recordsWaitAndStatusExplains() throws {
        let dir = TemporaryDirectory()
        let file = dir.write("t.jsonl", "{\"seq\":1,\"time\":\"2020-01-01T00:00:00.000Z\"}\n{\"seq\":2}\n")
        let url = PublishURL(secure: false, host: "127.0.0.1", port: Self.closedPort(), username: "u", password: "pw-secret-9", topic: "t/taps")
        var configuration = ForwarderConfiguration(outboxPath: file, url: url, stationID: String(repeating: "0", count: 32))
        configuration.retryMin = .milliseconds(50)
        let forwarder = Forwarder(configuration: configuration)
        let logged = Locked<[String]>([])
        forwarder.onLog = { _, message in logged.append(message) }
        try forwarder.start()
        let deadline = Date().addingTimeInterval(10)
        while forwarder.status.connection != .disconnected, Date() < deadline { usleep(20_000) }
        let status = forwarder.status
        forwarder.stop()
        #expect(status.connection == .disconnected)
        #expect(status.backlogRecords == 2 && status.backlogBytes == 54)
        #expect((status.oldestUnsentAge ?? 0) > 3600 * 24 * 365, "age from the record's time field")
        #expect(status.lastError != nil && status.summary.contains("backlog 2 records"))
        let position = try #require(try OutboxPosition.load(path: file + ".fleet-position"))
        #expect(position.offset == 0 && position.records == 0 && !position.fileID.isEmpty)
        let all = logged.current.joined(separator: "\n") + (status.lastError ?? "")
        #expect(all.contains("cannot connect to mqtt://u:***@127.0.0.1"), "\(all)")
        #expect(!all.contains("pw-secret-9"))
    }
}
