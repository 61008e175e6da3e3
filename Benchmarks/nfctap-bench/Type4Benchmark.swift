import NFCTags
import TagEmulation

/// Type 4 NDEF reads through the in-process channel with 5 ms per exchange: exchanges and
/// milliseconds per read, next to the least a reader could do (docs/tags-and-readers.md §2).
func type4BenchmarkRows() -> [BenchmarkRow] {
    struct Case {
        let name: String
        let tag: VirtualType4Tag
        let extendedLength: Bool
        let minimumExchanges: Int
        let note: String
    }
    let latency = Duration.milliseconds(5)
    let latencyMs = 5.0
    /// 4 setup exchanges (SELECT app, SELECT CC, READ CC, SELECT NDEF) + the NDEF file in Le-sized
    /// reads: what a reader that knew the tag's mapping in advance would send.
    func minimum(setup: Int, fileBytes: Int, le: Int) -> Int { setup + (fileBytes + le - 1) / le }

    let cases = [
        Case(name: "v2, 18 B", tag: .smallMessage(), extendedLength: false,
             minimumExchanges: 5, note: "SELECT app, SELECT CC, READ CC, SELECT NDEF, one READ"),
        Case(name: "v2, 244 B (MLe − 2)", tag: VirtualType4Tag(ndef: VirtualType4Tag.sampleMessage(size: 244)),
             extendedLength: false, minimumExchanges: 5, note: "largest message read in 5"),
        Case(name: "v1 legacy, 18 B", tag: .smallMessage(version: .v1), extendedLength: false,
             minimumExchanges: 5, note: "+1: the v2 SELECT must fail (6A 82) first"),
        Case(name: "v3, 18 B", tag: .smallMessage(version: .v3), extendedLength: false,
             minimumExchanges: 5, note: "+1: a 17-byte CC is read 15 + 2 (15 is all a v2 CC file holds)"),
        Case(name: "v2, 4 KB", tag: .largeMessage(size: 4096), extendedLength: false,
             minimumExchanges: minimum(setup: 4, fileBytes: 4096 + 2, le: 0xF6), note: "MLe 246"),
        Case(name: "v3, 40 000 B (> 32 KB)", tag: .largeMessage(version: .v3, size: 40000), extendedLength: false,
             minimumExchanges: minimum(setup: 4, fileBytes: 40000 + 4, le: 0xF6),
             note: "+1 for the 17-byte CC; B0 to 7FFF, then B1 (3-byte 53 header per reply)"),
        Case(name: "v3, 40 000 B, extended APDUs",
             tag: .largeMessage(version: .v3, size: 40000, maxResponseLength: 0x1000, maxCommandLength: 0x1000),
             extendedLength: true, minimumExchanges: minimum(setup: 4, fileBytes: 40000 + 4, le: 0x1000),
             note: "MLe 4096; +1 for the 17-byte CC"),
    ]

    var rows: [BenchmarkRow] = []
    let clock = ContinuousClock()
    let iterations = 3
    for c in cases {
        let plan = FaultPlan(latency: latency)
        var exchanges = 0
        var failure: String? = nil
        let elapsed = clock.measure {
            for _ in 0..<iterations {
                plan.reset()
                c.tag.activate()
                // A new object per read, as a new connection makes: it remembers what it read.
                let tag = Type4Tag(transceiver: VirtualTagTransceiver(tag: c.tag, plan: plan), extendedLength: c.extendedLength)
                do {
                    let message = try tag.readNDEF()
                    if message != c.tag.ndefMessage { failure = "read returned wrong bytes" }
                } catch {
                    failure = "\(error)"
                }
                exchanges = plan.exchangeCount
            }
        }
        let ms = elapsed / iterations
        let msPerRead = Double(ms.components.seconds) * 1000 + Double(ms.components.attoseconds) / 1e15
        let note = failure.map { "FAILED: \($0)" } ?? c.note
        rows.append(BenchmarkRow(group: "Type 4 read", name: c.name, measured: Double(exchanges), unit: "exchanges",
                                 minimum: Double(c.minimumExchanges), note: note))
        rows.append(BenchmarkRow(group: "Type 4 read", name: c.name, measured: msPerRead, unit: "ms",
                                 minimum: Double(c.minimumExchanges) * latencyMs, note: "5 ms per exchange"))
    }
    return rows
}
