import Foundation
import NDEF
import NFCTags
import NFCTapKitTestSupport
import TagEmulation
import Testing

/// Ring 4, faults at the USB boundary: the emulator's `hwerror` and `stall` hooks
/// (scripts/usb-reader-emulator/usb-reader-emulator.py) make libccid see what a failing reader
/// gives it. What must hold (docs/faults.md, "Reader faults"): a typed error or the right data, never wrong
/// data, never a hang, and the reader usable on the next tap.
extension RealDriverTests {
    /// A scan's result is either the tag's message or a clear error; never a record with other data.
    /// `uidMayBeMissing`: the reader failed every UID query, so the tag may come without one (an
    /// empty `uid`, as for a reader held by another program), never with another tag's.
    static func expectRightOrTypedError(_ r: CLIResult, uid: String, uidMayBeMissing: Bool = false, _ context: String) {
        if r.status == 0 {
            let report = try? ScanJSON.decode(r.stdout)
            let uidRight = report?.uid == uid || (uidMayBeMissing && report?.uid == "")
            #expect(uidRight && report?.records?.map(\.uri) == [Self.uri], "\(context): \(r.stdout)")
        } else {
            #expect(r.stderr.contains("nfctap: error:"), "\(context): \(r.stderr)")
            #expect(r.stdout.isEmpty, "\(context): nothing on stdout after an error: \(r.stdout)")
        }
    }

    /// After a fault, the next scan through the same reader reads the tag.
    static func expectNextScanReads(_ profile: USBProfile, _ n: UInt8) throws {
        let card = try profile.tap(try Self.ntag213(n))
        defer { card.remove() }
        let r = try runCLI(["scan", "--json", "--timeout", "20", "--reader", profile.match], environment: USBRing.pcsc)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try ScanJSON.decode(r.stdout).uid == Self.ntag213(n).uid.hexString)
    }

    @Test("CCID hardware errors (bStatus 0x40, HW_ERROR) during a scan: the UID query is asked again; the right data or a typed error; then the reader reads again",
          arguments: [1, 2, 4])
    func hardwareErrorDuringScan(_ count: Int) throws {
        let profile = USBProfile.acr122u
        defer { _ = try? USBRing.emulator("clear", profile.key) }
        let tag = try Self.ntag213(0x60 + UInt8(count))
        let card = try profile.tap(tag)
        try USBRing.emulator("hwerror", profile.key, String(count))
        let r = try runCLI(["scan", "--json", "--timeout", "8", "--reader", profile.match], environment: USBRing.pcsc, timeout: 30)
        card.remove()
        // Up to two failed exchanges are absorbed by the UID query's retries (PCSCBackend.uidAttempts).
        Self.expectRightOrTypedError(r, uid: tag.uid.hexString, uidMayBeMissing: count > 2, "hwerror \(count)")
        try Self.expectNextScanReads(profile, 0x68)
    }

    @Test("bulk IN endpoint stalled (-EPIPE) during a scan: the right data or a typed error, then the reader reads again")
    func stalledEndpointDuringScan() throws {
        let profile = USBProfile.omnikey
        defer { _ = try? USBRing.emulator("clear", profile.key) }
        let tag = try Self.ntag213(0x64)
        let card = try profile.tap(tag)
        try USBRing.emulator("stall", profile.key, "82")
        let r = try runCLI(["scan", "--json", "--timeout", "8", "--reader", profile.match], environment: USBRing.pcsc, timeout: 30)
        card.remove()
        Self.expectRightOrTypedError(r, uid: tag.uid.hexString, "stall")
        try Self.expectNextScanReads(profile, 0x69)
    }

    @Test("kiosk through faults: a tap hit by hardware errors is recorded right or not at all; the next tap is recorded")
    func kioskThroughHardwareErrors() throws {
        let profile = USBProfile.acr122u
        defer { _ = try? USBRing.emulator("clear", profile.key) }
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (kiosk, output) = try Self.kiosk(on: profile, in: dir)
        kiosk.waitForLog("reader added") { $0.hasPrefix("<6>reader added") && $0.contains("ACR122U") }
        try USBRing.emulator("hwerror", profile.key, "2")
        let hit = try profile.tap(try Self.ntag213(0x66))
        usleep(1_500_000)
        hit.remove()
        let next = try profile.tap(try Self.ntag213(0x67))
        var lines: [[String: Any]] = []
        for _ in 0..<100 {
            lines = (try? jsonLines(output)) ?? []
            if lines.contains(where: { $0["uid"] as? String == "04102030405067" }) { break }
            usleep(100_000)
        }
        next.remove()
        let uids = lines.compactMap { $0["uid"] as? String }
        #expect(uids.last == "04102030405067", "\(uids)")
        #expect(Set(uids).isSubset(of: ["04102030405066", "04102030405067"]), "\(uids)")
        #expect(kiosk.terminate() == 0)
    }
}
