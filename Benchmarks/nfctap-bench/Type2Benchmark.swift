import Foundation
import NFCTags
import TagEmulation

// Type 2 reads through the emulated PC/SC reader: exchanges and milliseconds per NDEF read of a
// full tag, with 5 ms per exchange, next to the theoretical minimum:
//   [1 GET_VERSION when the reader passes raw commands: needed before FAST_READ is safe]
//   + ceil(bytes of pages 3...last NDEF page / bytes one exchange carries)
// (ACR122U FAST_READ: 240 bytes; PC/SC Part 3 transparent exchange: the same FAST_READ, 3 APDUs per
// raw command; an Identiv refusing the transparent exchange: 1 refused APDU, then READ BINARY of 4 bytes).

func type2BenchmarkRows() -> [BenchmarkRow] {
    let latency = Duration.milliseconds(5)
    let products: [(Type2Product, Int, Int)] = [(.ntag213, 137, 21), (.ntag215, 492, 16), (.ntag216, 868, 16)]
    // (name, profile, bytes per raw command or READ, APDUs per raw command, fixed APDUs, refuses FF C2)
    let readers: [(String, PCSCReaderProfile, Int, Int, Int, Bool)] = [
        ("ACR122U", .acr122u, 240, 1, 1, false),
        ("OMNIKEY 5022 (transparent exchange)", .omnikey, 240, 3, 3, false),
        ("Identiv refusing the transparent exchange", .identiv, 4, 1, 1, true),
    ]
    var rows: [BenchmarkRow] = []
    for (product, size, ndefStart) in products {
        let message = (0 ..< size).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
        let header = size < 0xFF ? 2 : 4
        let lastPage = (ndefStart + header + size - 1) / 4
        let bytes = (lastPage - 3 + 1) * 4
        for (readerName, profile, perExchange, apdusPerExchange, fixed, refuses) in readers {
            guard let tag = try? VirtualType2Tag(product: product, uid: VirtualType2Tag.defaultUID, ndef: message) else { continue }
            let minimum = fixed + apdusPerExchange * ((bytes + perExchange - 1) / perExchange)
            var exchanges = 0
            var millis: [Double] = []
            for _ in 0 ..< 3 {
                let reader = EmulatedPCSCReader(profile: profile, tag: tag, plan: FaultPlan(latency: latency))
                reader.refusesTransparentExchange = refuses
                let start = ContinuousClock.now
                let read = try? Type2Tag(link: reader.type2Link()).readNDEF()
                let elapsed = ContinuousClock.now - start
                guard read == message else { continue }
                exchanges = reader.plan.exchangeCount
                millis.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
            }
            guard !millis.isEmpty else { continue }
            let name = "\(product) full (\(size) B), \(readerName)"
            rows.append(BenchmarkRow(group: "Type 2 read", name: name, measured: Double(exchanges), unit: "exchanges",
                                     minimum: Double(minimum)))
            rows.append(BenchmarkRow(group: "Type 2 read", name: name, measured: millis.sorted()[millis.count / 2], unit: "ms",
                                     minimum: Double(minimum * 5), note: "5 ms per exchange, median of 3"))
        }
    }
    return rows
}
