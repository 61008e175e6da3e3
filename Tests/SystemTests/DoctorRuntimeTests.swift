import Foundation
import Testing
import NFCReaders
import ReaderCore
@testable import Pairing

/// `nfctap doctor`'s checks of running services: pcscd (the private one from scripts/services/pcscd.sh)
/// and BlueZ (the dbusmock bluez5 mock on the private bus).
@Suite(.serialized) struct DoctorRuntimeTests {
    static func doctor(_ env: [String: String] = [:]) throws -> CLIResult {
        try runCLI(["doctor"], environment: env)
    }

    @Test(.enabled(if: SystemEnvironment.available("pcscd")))
    func pcscdRunningAndItsReaders() throws {
        try TestPCSCD.control("start")
        let r = try Self.doctor()
        #expect(r.stdout.contains("[ok  ] pcscd-running: pcscd is running"), "\(r.stdout)")
        #expect(r.stdout.contains("[info] readers: pcscd sees 2 reader(s): Virtual PCD 00 00, Virtual PCD 00 01 (2 virtual, from vsmartcard-vpcd)"),
                "\(r.stdout)")
    }

    @Test(.enabled(if: SystemEnvironment.available("pcscd")))
    func pcscdStoppedFailsWithTheFix() throws {
        try TestPCSCD.control("stop")
        defer { try? TestPCSCD.control("start") }
        let r = try Self.doctor()
        #expect(r.status == 1)
        #expect(r.stdout.contains("[FAIL] pcscd-running: pcscd is not reachable"))
        // One piece of advice for a missing pcscd: doctor's fix is the hint `scan` gives.
        #expect(r.stdout.contains("fix: \(PCSCBackend.serviceFix)"), "\(r.stdout)")
        let scan = try runCLI(["scan", "--timeout", "1"])
        #expect(scan.status == 3)
        #expect(scan.stderr.contains(PCSCBackend.serviceFix), "\(scan.stderr)")
        // It names only tools the scripts install (no pcsc_scan, which nothing installs).
        #expect(!r.stdout.contains("pcsc_scan"))
    }
}

extension BlueZSystemTests {
    @Suite struct DoctorBlueZTests {
        func doctor(_ address: String) throws -> String {
            try runCLI(["doctor"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": address]).stdout
        }

        @Test func poweredAdapterIsOK() throws {
            let mock = try BlueZMock()
            let path = try mock.addAdapter("hci0")
            try mock.set(path, "org.bluez.Adapter1", "Powered", .bool(true))
            #expect(try doctor(mock.address).contains("[ok  ] bluez: Bluetooth adapter hci0"))
        }

        @Test func adapterOffWarnsWithTheFix() throws {
            let mock = try BlueZMock()
            let path = try mock.addAdapter("hci0")
            try mock.set(path, "org.bluez.Adapter1", "Powered", .bool(false))
            let out = try doctor(mock.address)
            #expect(out.contains("[warn] bluez: Bluetooth adapter hci0 is powered off"), "\(out)")
            #expect(out.contains("fix: bluetoothctl power on"))
        }

        @Test func noAdapterWarns() throws {
            let mock = try BlueZMock()
            #expect(try doctor(mock.address).contains("[warn] bluez: BlueZ runs but has no Bluetooth adapter"))
        }

        @Test func noBlueZWarns() throws {
            let mock = try BlueZMock(start: false)
            let out = try doctor(mock.address)
            #expect(out.contains("[warn] bluez: BlueZ is not reachable"), "\(out)")
            #expect(out.contains("apt-get install bluez"))
        }
    }
}
