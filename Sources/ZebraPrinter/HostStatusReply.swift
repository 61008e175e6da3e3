/// Checks on raw `~HS` reply bytes, for code that collects BLE indications or socket reads
/// and wants to know when to stop waiting.
public enum HostStatusReply {
    /// True when `bytes` hold a whole reply, or bytes that can never become one (then
    /// ``PrinterStatus/init(parsing:)`` says why); false while more bytes could complete it.
    public static func isComplete(_ bytes: [UInt8]) -> Bool {
        var parser = HostStatusParser()
        do {
            return try parser.feed(bytes) != nil
        } catch {
            return true
        }
    }
}
