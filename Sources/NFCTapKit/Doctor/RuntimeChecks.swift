import NFCReaders
import Pairing
import ReaderCore

/// pcscd running and the readers it sees (the running side of PCSCInstallCheck).
package struct PCSCRuntimeCheck {
    package init() {}

    package func run() -> [DoctorFinding] {
        let readers: [ReaderInfo]
        do {
            readers = try PCSCBackend().listReaders()
        } catch {
            return [DoctorFinding(check: "pcscd-running", status: .failure,
                                  summary: "pcscd is not reachable: PC/SC readers cannot be used",
                                  fix: PCSCBackend.serviceFix)]
        }
        var findings = [DoctorFinding(check: "pcscd-running", status: .ok, summary: "pcscd is running", fix: nil)]
        let real = readers.filter { !$0.name.hasPrefix("Virtual PCD") }
        if readers.isEmpty {
            findings.append(DoctorFinding(check: "readers", status: .warning, summary: "pcscd sees no reader",
                                          fix: "plug the reader in; if it is a PN533-based reader (ACR122U, SCL3711) see kernel-modules above; `nfctap readers` lists what pcscd sees"))
        } else {
            let virtual = readers.count - real.count
            let names = readers.map(\.name).joined(separator: ", ")
            findings.append(DoctorFinding(check: "readers", status: real.isEmpty ? .info : .ok,
                                          summary: "pcscd sees \(readers.count) reader(s): \(names)" + (virtual > 0 ? " (\(virtual) virtual, from vsmartcard-vpcd)" : ""),
                                          fix: nil))
        }
        return findings
    }
}

/// A BlueZ adapter present and powered (needed by `nfctap pair --handler bluez`).
package struct BlueZCheck {
    package var handler = BlueZPairingHandler()

    package init() {}

    package func run() -> DoctorFinding {
        let adapters: [BluetoothAdapterStatus]
        do {
            adapters = try handler.adapters()
        } catch {
            return DoctorFinding(check: "bluez", status: .warning,
                                 summary: "BlueZ is not reachable (\(error)): `nfctap pair --handler bluez` cannot pair",
                                 fix: DoctorAdvice.asRoot("apt-get install bluez", "systemctl enable --now bluetooth"))
        }
        guard !adapters.isEmpty else {
            return DoctorFinding(check: "bluez", status: .warning, summary: "BlueZ runs but has no Bluetooth adapter",
                                 fix: "plug in a Bluetooth adapter; `rfkill list` shows blocked ones")
        }
        let off = adapters.filter { !$0.powered }
        if off.count == adapters.count {
            return DoctorFinding(check: "bluez", status: .warning,
                                 summary: "Bluetooth adapter \(off.map(\.name).joined(separator: ", ")) is powered off",
                                 fix: "bluetoothctl power on   (nfctap pair also powers it on when allowed)")
        }
        let on = adapters.filter(\.powered).map { $0.name + ($0.address.map { " (\($0))" } ?? "") }
        return DoctorFinding(check: "bluez", status: .ok, summary: "Bluetooth adapter \(on.joined(separator: ", ")) is powered", fix: nil)
    }
}
