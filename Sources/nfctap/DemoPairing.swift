import ZebraPrinter

/// What `nfctap pair` would do with a printer identity, said without doing it.
enum DemoPairing {
    /// One sentence: the transport and MAC `pair` would use (Classic unless the tag only has an
    /// LE MAC; all-zero MACs mean "absent", specs/zebra.md §1), then trust and connect.
    static func dryRun(_ identity: PrinterIdentity) -> String {
        let classic = identity.bluetooth.flatMap { $0.isZero ? nil : $0 }
        let le = identity.bluetoothLE.flatMap { $0.isZero ? nil : $0 }
        let printer = "printer \(identity.serial)" + (identity.model.map { " (\($0))" } ?? "")
        if let mac = classic {
            return "would pair \(printer) over Bluetooth Classic at \(mac) using the first Bluetooth adapter, then trust it and connect"
        }
        if let mac = le {
            return "would pair \(printer) over Bluetooth LE at \(mac) using the first Bluetooth adapter, then trust it, connect and read its GATT Device Information"
        }
        return "cannot pair \(printer): its tag has no Bluetooth address"
    }
}
