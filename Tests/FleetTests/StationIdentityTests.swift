import Foundation
import Testing
@testable import Fleet

/// The station id: SHA-256 and HMAC against published vectors, then the application-specific id
/// against `systemd-id128 machine-id --app-specific` (sd_id128_get_machine_app_specific).
@Suite struct StationIdentityTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test("SHA-256: FIPS 180-4 vectors (empty, abc, two blocks, a million a)")
    func sha256Vectors() {
        #expect(Self.hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Self.hex(SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("HMAC-SHA256: RFC 4231 test cases 1, 2 and 6 (a key longer than a block)")
    func hmacVectors() {
        #expect(Self.hex(SHA256.hmac(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8)))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(Self.hex(SHA256.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(Self.hex(SHA256.hmac(key: [UInt8](repeating: 0xaa, count: 131),
                                     message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test("the published id is systemd's app-specific id, never the machine id")
    func applicationSpecificID() throws {
        // `systemd-id128 machine-id --app-specific=a3cbfb1954e84c879a8152a4b7600af8` on machines
        // with these ids printed exactly these.
        #expect(StationIdentity.applicationID(machineID: "00112233445566778899aabbccddeeff") == "580e9973a6fa4d1a85a0caff99cb252f")
        #expect(StationIdentity.applicationID(machineID: "3d1219c7c4c5404aaa1f6d2a48adfda4") == "6a491a2f6fb246d5a32cde095043633f")
        let dir = TemporaryDirectory()
        let file = dir.write("machine-id", "3d1219c7c4c5404aaa1f6d2a48adfda4\n")
        let id = try StationIdentity.stationID(paths: [file])
        #expect(id == "6a491a2f6fb246d5a32cde095043633f" && !id.contains("3d1219c7"))
        #expect(StationIdentity.applicationID(machineID: "3d1219c7c4c5404aaa1f6d2a48adfda4", application: String(repeating: "0", count: 32)) != id,
                "another application derives another id")
    }

    @Test("the retained status and record ids carry the station id, not the machine id")
    func statusCarriesTheStationID() throws {
        let configuration = ForwarderConfiguration(
            outboxPath: "/tmp/x.jsonl", url: try PublishURL.parse("mqtt://b/t/taps"), stationID: "6a491a2f6fb246d5a32cde095043633f")
        let payload = String(decoding: Forwarder(configuration: configuration).statusPayload(state: "online"), as: UTF8.self)
        #expect(payload.contains("\"stationId\":\"6a491a2f6fb246d5a32cde095043633f\"") && !payload.contains("machineId"))
    }
}
