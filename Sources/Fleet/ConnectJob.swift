import Foundation
import MQTT
import Synchronization

/// One `MQTTClient.connect` (DNS, TCP, the start of TLS) on a helper thread of its own, so that
/// the forwarding thread can stop or give up at any moment (docs/fleet.md: bounds). The client
/// belongs to the helper until the result is taken, then to the forwarding thread.
// @unchecked: `client` is used by one thread at a time: the helper until `done` is signalled, then the taker.
final class ConnectJob: @unchecked Sendable {
    private let client: MQTTClient
    private let host: String
    private let port: Int
    private let done = DispatchSemaphore(value: 0)
    private let outcome = Mutex<Result<Void, MQTTError>?>(nil)
    /// The forwarding thread gave up waiting (it dropped the attempt); set and read on that thread only.
    var overdue = false

    init(client: MQTTClient, host: String, port: Int) {
        self.client = client
        self.host = host
        self.port = port
    }

    func start() {
        let thread = Thread { [self] in
            let result: Result<Void, MQTTError>
            do {
                try client.connect(host: host, port: port)
                result = .success(())
            } catch let error as MQTTError {
                result = .failure(error)
            } catch {
                result = .failure(MQTTError(kind: .other, code: -1, operation: "connect"))
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        thread.name = "nfctap.fleet.connect"
        thread.start()
    }

    /// The result once the helper is done (nil if it is not within `milliseconds`).
    func wait(milliseconds: Int) -> Result<MQTTClient, MQTTError>? {
        guard done.wait(timeout: .now() + .milliseconds(milliseconds)) == .success else { return nil }
        done.signal()
        return outcome.withLock { $0 }.map { result in result.map { client } }
    }
}
