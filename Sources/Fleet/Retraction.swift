import MQTT

/// Clears retained messages: an empty retained payload makes the broker keep none for its topic
/// (MQTT 3.1.1 §3.3.1.3). `nfctap fleet forget-station` removes a station from Home Assistant
/// this way (its discovery config, then HA deletes the tag scanner) and its retained status.
public enum Retraction {
    /// Connects, clears each topic, waits for every PUBACK, disconnects.
    /// - Throws: `MQTTError` when the broker cannot be reached or refuses, or does not answer within `timeout`.
    public static func clear(_ topics: [String], configuration: ForwarderConfiguration, timeout: Duration = .seconds(10)) throws {
        let url = configuration.url
        let client = try MQTTClient(options: MQTTClientOptions(
            clientID: configuration.clientID + "-forget", cleanSession: true, username: url.username, password: url.password,
            tls: url.secure ? .init(caFile: configuration.caFile) : nil, will: nil, keepAliveSeconds: configuration.keepAliveSeconds))
        var connack: Int32?
        var waiting: [Int32] = []
        client.onEvent = { event in
            switch event {
            case let .connected(code): connack = code
            case let .published(mid): waiting.removeAll { $0 == mid }
            default: break
            }
        }
        let deadline = ContinuousClock.now + timeout
        try client.connect(host: url.host, port: url.port)
        while connack == nil {
            guard ContinuousClock.now < deadline else { throw MQTTError.noAnswer("connect", detail: "no CONNACK from \(url.host) in time") }
            try client.loop(timeoutMilliseconds: 50)
        }
        if let code = connack, code != 0 { throw MQTTError.refused(connack: code) }
        for topic in topics { waiting.append(try client.publish(topic: topic, payload: [], qos: 1, retain: true)) }
        while !waiting.isEmpty {
            guard ContinuousClock.now < deadline else { throw MQTTError.noAnswer("publish", detail: "no PUBACK from \(url.host) in time") }
            try client.loop(timeoutMilliseconds: 50)
        }
        client.disconnect()
        _ = try? client.loop(timeoutMilliseconds: 10)
    }
}
