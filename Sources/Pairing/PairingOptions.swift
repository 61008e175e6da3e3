/// Options shared by the pairing handlers (each uses the ones that concern it).
public struct PairingOptions: Sendable, Equatable {
    /// BlueZ adapter name (`hci1`); nil = the first adapter BlueZ lists.
    public var adapter: String?
    /// Use Bluetooth LE even when the tag has a Classic MAC (`--le`).
    public var forceLE: Bool
    /// How long to scan for a printer BlueZ does not know yet.
    public var discoveryTimeout: Duration
    /// How long `Device1.Pair` may take (it may wait for a confirmation on the printer).
    public var pairTimeout: Duration
    /// How long to wait for an LE printer's GATT services after connecting.
    public var servicesTimeout: Duration
    /// Connect after pairing (Classic: `Device1.Connect`; LE: also resolves GATT services).
    public var connect: Bool
    /// PIN to give when the printer asks for one (`bluetooth.authentication` on); nil = refuse.
    public var pin: String?
    /// `--exec`: how long the user's program may run before it is stopped.
    public var commandTimeout: Duration

    public init(adapter: String? = nil, forceLE: Bool = false, discoveryTimeout: Duration = .seconds(15),
                pairTimeout: Duration = .seconds(60), servicesTimeout: Duration = .seconds(15),
                connect: Bool = true, pin: String? = nil, commandTimeout: Duration = .seconds(60)) {
        self.adapter = adapter
        self.forceLE = forceLE
        self.discoveryTimeout = discoveryTimeout
        self.pairTimeout = pairTimeout
        self.servicesTimeout = servicesTimeout
        self.connect = connect
        self.pin = pin
        self.commandTimeout = commandTimeout
    }
}
