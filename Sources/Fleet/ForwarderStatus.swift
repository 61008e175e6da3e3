import Foundation

/// What the forwarder is doing, for the inventory status line, the kiosk log and `fleet status`.
public struct ForwarderStatus: Equatable, Sendable {
    public enum Connection: String, Sendable {
        case waitingForFile = "waiting for the record file"
        case connecting
        case connected
        case disconnected
        case stopped
    }

    public var connection: Connection = .connecting
    /// Records on disk not yet acknowledged by the broker.
    public var backlogRecords: UInt64 = 0
    public var backlogBytes: UInt64 = 0
    /// Age of the oldest record not yet acknowledged (from its "time" field); nil when none or unknown.
    public var oldestUnsentAge: Double?
    /// Records acknowledged since this forwarder started.
    public var publishedSinceStart: UInt64 = 0
    /// Records acknowledged in the file so far (the last acknowledged seq).
    public var acknowledgedRecords: UInt64 = 0
    /// Records not sent to Home Assistant for want of a tag id, since start.
    public var homeAssistantSkipped = 0
    /// Taps held for Home Assistant (it is offline, or just came back).
    public var homeAssistantHeld = 0
    /// The last connection problem, passwords removed.
    public var lastError: String?

    public init() {}

    /// "connected, backlog 0" / "disconnected (…), backlog 12 records, oldest 3.4 s".
    public var summary: String {
        var text = connection.rawValue
        if connection != .connected, let lastError { text += " (\(lastError))" }
        text += ", backlog \(backlogRecords) record" + (backlogRecords == 1 ? "" : "s")
        if backlogRecords > 0, let age = oldestUnsentAge { text += String(format: ", oldest %.1f s", age) }
        if homeAssistantHeld > 0 { text += ", \(homeAssistantHeld) held for Home Assistant" }
        if homeAssistantSkipped > 0 { text += ", \(homeAssistantSkipped) without a tag id for Home Assistant" }
        return text
    }
}
