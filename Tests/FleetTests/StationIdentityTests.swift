import Foundation
import Testing
@testable import Fleet

/// The station id: libsystemd's `sd_id128_get_machine_app_specific` for nfctap's application id,
/// the same id the station published when nfctap computed it itself.
@Suite struct StationIdentityTests {
    static var machineID: String? {
        (try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("the published id is systemd's app-specific id, never the machine id")
    func applicationSpecificID() throws {
        let id = try StationIdentity.stationID()
        #expect(id.count == 32 && id.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(id)")
        #expect(try StationIdentity.stationID() == id, "stable")
        if let machineID = Self.machineID {
            #expect(id != machineID && !id.contains(machineID.prefix(8)))
        }
        // The vector of nfctap's own HMAC-SHA256 (and of `systemd-id128 machine-id --app-specific`)
        // for the machine id this repository's test machine has: the stations keep their ids.
        if Self.machineID == "3d1219c7c4c5404aaa1f6d2a48adfda4" {
            #expect(id == "6a491a2f6fb246d5a32cde095043633f")
        }
    }

    @Test("the same id as systemd-id128 prints for the application id")
    func sameAsSystemdID128() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-id128") else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-id128")
        process.arguments = ["machine-id", "--app-specific=\(StationIdentity.applicationIDKey)"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try StationIdentity.stationID() == printed)
    }

    @Test("the retained status and record ids carry the station id, not the machine id")
    func statusCarriesTheStationID() throws {
        let configuration = ForwarderConfiguration(
            outboxPath: "/tmp/x.jsonl", url: try PublishURL.parse("mqtt://b/t/taps"), stationID: "6a491a2f6fb246d5a32cde095043633f")
        let payload = String(decoding: Forwarder(configuration: configuration).statusPayload(state: "online"), as: UTF8.self)
        #expect(payload.contains("\"stationId\":\"6a491a2f6fb246d5a32cde095043633f\"") && !payload.contains("machineId"))
    }

    @Test("the retained status is the same JSON as before: sorted keys, slashes unescaped")
    func statusPayloadText() throws {
        let configuration = ForwarderConfiguration(
            outboxPath: "/tmp/x.jsonl", url: try PublishURL.parse("mqtt://b/site/a/taps"), stationID: "6a49")
        let payload = String(decoding: Forwarder(configuration: configuration).statusPayload(state: "offline"), as: UTF8.self)
        #expect(payload == "{\"clientId\":\"\(configuration.clientID)\",\"state\":\"offline\",\"stationId\":\"6a49\",\"topic\":\"site/a/taps\"}")
    }

    /// libsystemd is opened on first use: without it the forwarders answer -ELIBACC, which says
    /// the library is missing, not the machine id.
    @Test("a missing libsystemd is named as such, a missing machine id as such")
    func noMachineIDMessages() {
        let missingLibrary = "\(FleetError.noMachineID(errno: ELIBACC))"
        #expect(missingLibrary.contains("libsystemd.so.0") && missingLibrary.contains("apt-get install libsystemd0"), "\(missingLibrary)")
        let missingID = "\(FleetError.noMachineID(errno: ENOENT))"
        #expect(missingID.contains("/etc/machine-id") && !missingID.contains("libsystemd.so.0"), "\(missingID)")
    }
}

