import Foundation

/// Everything a `Forwarder` needs: the record file, the broker, the identity, the timings.
public struct ForwarderConfiguration: Sendable {
    /// The JSONL record file (the durable outbox); read only.
    public var outboxPath: String
    public var url: PublishURL
    /// The topic records go to (the URL's, or `nfctap/<site>/<station>/taps`).
    public var topic: String
    /// PEM CA file for mqtts (nil: the system's CAs).
    public var caFile: String?
    /// The station id (`StationIdentity.stationID`: never the raw machine id).
    public var stationID: String
    public var clientID: String
    /// Messages sent and not yet acknowledged, at most. Order is kept for any value: one
    /// connection delivers in order (MQTT 3.1.1 §4.6), and after a reconnect publishing starts
    /// again at the first unacknowledged record.
    public var maxInFlight = 16
    /// No PUBACK for this long (or no CONNACK): the connection is taken as dead and remade.
    public var ackTimeout: Duration = .seconds(10)
    /// Waits between connection attempts: doubling from `retryMin` to `retryMax`.
    public var retryMin: Duration = .milliseconds(250)
    public var retryMax: Duration = .seconds(10)
    /// The position file is rewritten at most this often (and on stop): a crash republishes at
    /// most this much, with the same ids.
    public var persistInterval: Duration = .milliseconds(200)
    public var keepAliveSeconds: Int32 = 10
    /// Retained messages published on every connection after the status (Home Assistant discovery).
    public var announcements: [(topic: String, payload: [UInt8])] = []
    /// Home Assistant's tag scanner: taps also go to the station's HA topic when HA can get them
    /// (`HomeAssistantDelivery`). nil: no HA.
    public var homeAssistant: HomeAssistantDiscovery?
    /// Where taps held for Home Assistant are kept across restarts.
    public var homeAssistantHeldPath: String { outboxPath + ".homeassistant-held" }

    public init(outboxPath: String, url: PublishURL, topic: String? = nil, caFile: String? = nil,
                stationID: String, clientID: String? = nil) {
        self.outboxPath = outboxPath
        self.url = url
        self.topic = topic ?? url.topic
        self.caFile = caFile
        self.stationID = stationID
        self.clientID = clientID ?? StationIdentity.clientID(stationID: stationID, outboxPath: outboxPath)
    }

    public var statusTopic: String { Topic.status(forRecords: topic) }
    public var positionPath: String { OutboxPosition.path(forOutbox: outboxPath) }
}
