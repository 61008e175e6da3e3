import NFCTags
import TagEmulation

/// Type 5 (ISO 15693) NDEF reads with 5 ms per exchange, through the PC/SC reader personalities:
/// exchanges and milliseconds per read next to the least each path allows (docs/tags-and-readers.md §7.7).
func type5BenchmarkRows() -> [BenchmarkRow] {
    struct Case {
        let name: String
        let tag: () -> VirtualISO15693Tag
        let profile: PCSCReaderProfile
        let minimumExchanges: Int
        let note: String
    }
    let uri: [UInt8] = [0xD1, 0x01, 0x06, 0x55, 0x04, 0x61, 0x2E, 0x63, 0x6F, 0x6D]
    let large = (0 ..< 300).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
    func slix2(_ message: [UInt8]) -> () -> VirtualISO15693Tag {
        { .formatted(.icodeSLIX2, uid: VirtualISO15693Tag.exampleUID(.icodeSLIX2), message: message) }
    }
    func st25dv(_ message: [UInt8]) -> () -> VirtualISO15693Tag {
        { .formatted(.st25dv04k, uid: VirtualISO15693Tag.exampleUID(.st25dv04k), message: message) }
    }
    let cases = [
        Case(name: "ICODE SLIX2, 12 B, OMNIKEY (FF C2)", tag: slix2(uri), profile: .omnikey, minimumExchanges: 6,
             note: "start + switch, System Info, CC, one Read Multiple, end"),
        Case(name: "ICODE SLIX2, 300 B, OMNIKEY (FF C2)", tag: slix2(large), profile: .omnikey, minimumExchanges: 8,
             note: "Read Multiple of 32 blocks (128 B) per command"),
        Case(name: "ST25DV04K, 12 B, OMNIKEY (FF C2)", tag: st25dv(uri), profile: .omnikey, minimumExchanges: 8,
             note: "single blocks: ST refuses Read Multiple across sectors"),
        Case(name: "ICODE SLIX2, 12 B, reader refusing FF C2", tag: slix2(uri), profile: .generic, minimumExchanges: 5,
             note: "1 refused start + READ BINARY per block (0–3)"),
    ]
    let latency = Duration.milliseconds(5)
    var rows: [BenchmarkRow] = []
    let clock = ContinuousClock()
    let iterations = 3
    for c in cases {
        var exchanges = 0
        var failure: String? = nil
        var total = Duration.zero
        for _ in 0 ..< iterations {
            let virtual = c.tag()
            let expected = try? Type5Tag(link: VirtualISO15693Link(virtual)).readNDEF()
            let reader = EmulatedPCSCReader(profile: c.profile, tag: virtual, plan: FaultPlan(latency: latency))
            total += clock.measure {
                do {
                    let link = try PCSCISO15693Link(transceiver: EmulatedPCSCTransceiver(reader: reader), profile: c.profile, uid: virtual.uid)
                    let message = try Type5Tag(link: link).readNDEF()
                    link.close()
                    if message != expected { failure = "read returned wrong bytes" }
                } catch {
                    failure = "\(error)"
                }
            }
            exchanges = reader.plan.exchangeCount
        }
        let ms = total / iterations
        let msPerRead = Double(ms.components.seconds) * 1000 + Double(ms.components.attoseconds) / 1e15
        rows.append(BenchmarkRow(group: "Type 5 read", name: c.name, measured: Double(exchanges), unit: "exchanges",
                                 minimum: Double(c.minimumExchanges), note: failure.map { "FAILED: \($0)" } ?? c.note))
        rows.append(BenchmarkRow(group: "Type 5 read", name: c.name, measured: msPerRead, unit: "ms",
                                 minimum: Double(c.minimumExchanges) * 5, note: "5 ms per exchange"))
    }
    return rows
}
