import Testing
import NDEF

@Suite struct SmartPosterTests {
    // Nested message: URI, two titles, act, s, t (61 bytes).
    static let nested =
        "91 01 08 55 04" + a("nfc.org")            // URI https://nfc.org (MB)
        + "11 01 05 54 02" + a("en") + a("Hi")      // title [en]
        + "11 01 08 54 02" + a("fr") + a("Salut")   // title [fr]
        + "11 03 01" + a("act") + "02"              // action: open
        + "11 01 04" + a("s") + "00 00 10 00"       // size 4096
        + "51 01 09" + a("t") + a("image/png")      // type (ME)
    static let full = "D1 02 3D" + a("Sp") + nested

    static let poster = SmartPoster(
        uri: "https://nfc.org",
        titles: [TextRecord(text: "Hi", language: "en"), TextRecord(text: "Salut", language: "fr")],
        action: .open, size: 4096, mimeType: "image/png")

    @Test func fullPosterBothWays() throws {
        #expect(h(Self.nested).count == 0x3D)
        let record = try NDEFMessage(bytes: h(Self.full)).records[0]
        #expect(try record.parsed() == .smartPoster(Self.poster))
        #expect(try NDEFMessage(records: [Self.poster.record()]).encoded() == h(Self.full))
        #expect(Self.poster.action?.name == "open")
    }

    @Test func minimalPosterIsJustAURI() throws {
        let poster = SmartPoster(uri: "http://www.nfc.org/x")
        let encoded = try NDEFMessage(records: [poster.record()]).encoded()
        #expect(encoded == h("D1 02 0E" + a("Sp") + "D1 01 0A 55 01" + a("nfc.org/x")))
        #expect(try NDEFMessage(bytes: encoded).records[0].parsed() == .smartPoster(poster))
    }

    @Test func iconAndUnknownRecordsAreKept() throws {
        let icon = NDEFRecord.mime("image/png", [0x89, 0x50])
        let poster = SmartPoster(uri: "tel:123", otherRecords: [icon, NDEFRecord(tnf: .unknown, payload: [1])])
        let record = try poster.record()
        #expect(try SmartPoster(record: record) == poster)
    }

    func posterError(_ nested: String, _ mode: DecodingMode) -> NDEFError? {
        let payload = h(nested)
        let record = NDEFRecord(tnf: .wellKnown, type: Array("Sp".utf8), payload: payload)
        do { _ = try record.parsed(mode: mode); return nil } catch { return error }
    }

    @Test func missingURIIsAnErrorInBothModes() {
        for mode in [DecodingMode.strict, .relaxed] {
            #expect(posterError("D1 01 05 54 02" + a("en") + a("Hi"), mode)
                    == .invalidPayload(recordType: "Sp", offset: 0, violation: .missingURI))
        }
    }

    @Test func twoURIsStrictVersusRelaxed() throws {
        let nested = "91 01 02 55 05 31   51 01 02 55 05 32"
        #expect(posterError(nested, .strict) == .invalidPayload(recordType: "Sp", offset: 0, violation: .multipleURIs))
        let record = NDEFRecord(tnf: .wellKnown, type: Array("Sp".utf8), payload: h(nested))
        let poster = try SmartPoster(record: record, mode: .relaxed)
        #expect(poster.uri.uri == "tel:1")
        #expect(poster.otherRecords == [NDEFRecord(tnf: .wellKnown, type: [0x55], payload: h("05 32"))])
    }

    @Test func duplicateTitleLanguageIsStrictOnly() throws {
        let nested = "91 01 02 55 05 31   11 01 04 54 02" + a("en") + "61   51 01 04 54 02" + a("EN") + "62"
        #expect(posterError(nested, .strict) == .invalidPayload(recordType: "Sp", offset: 0, violation: .duplicateTitleLanguage("EN")))
        #expect(posterError(nested, .relaxed) == nil)
    }

    @Test func fieldRecordsWithWrongLengths() throws {
        let badAction = "91 01 02 55 05 31   51 03 02" + a("act") + "01 02"
        #expect(posterError(badAction, .strict) == .invalidNestedMessage(
            recordType: "Sp", underlying: .invalidPayload(recordType: "act", offset: 0, violation: .invalidFieldLength(field: "act", expected: 1, actual: 2))))
        let record = NDEFRecord(tnf: .wellKnown, type: Array("Sp".utf8), payload: h(badAction))
        let relaxed = try SmartPoster(record: record, mode: .relaxed)
        #expect(relaxed.action == nil && relaxed.otherRecords.count == 1)

        let reservedAction = "91 01 02 55 05 31   51 03 01" + a("act") + "03"
        #expect(posterError(reservedAction, .strict) == .invalidNestedMessage(
            recordType: "Sp", underlying: .invalidPayload(recordType: "act", offset: 0, violation: .unknownAction(3))))
        let kept = try SmartPoster(record: NDEFRecord(tnf: .wellKnown, type: Array("Sp".utf8), payload: h(reservedAction)), mode: .relaxed)
        #expect(kept.action == SmartPoster.Action(rawValue: 3) && kept.action?.name == nil)

        let badSize = "91 01 02 55 05 31   51 01 02" + a("s") + "10 00"
        #expect(posterError(badSize, .strict) == .invalidNestedMessage(
            recordType: "Sp", underlying: .invalidPayload(recordType: "s", offset: 0, violation: .invalidFieldLength(field: "s", expected: 4, actual: 2))))
    }

    @Test func brokenNestedMessageIsWrapped() {
        #expect(posterError("D1 01 05 55 04", .relaxed) == .invalidNestedMessage(
            recordType: "Sp", underlying: .truncated(field: .payload, offset: 4, needed: 5, available: 1)))
        #expect(posterError("", .relaxed) == .invalidNestedMessage(recordType: "Sp", underlying: .emptyMessage))
        #expect(posterError("D1 01 02 55 24 61", .strict) == .invalidNestedMessage(
            recordType: "Sp", underlying: .invalidPayload(recordType: "U", offset: 0, violation: .unknownURIIdentifierCode(0x24))))
    }

    /// Posters nested in posters: parsing recurses (strict validates nested records), bounded by the limit.
    @Test func nestingDepthIsLimited() throws {
        func nest(_ levels: Int) throws(NDEFError) -> NDEFRecord {
            var record = try SmartPoster(uri: "tel:1").record()
            for _ in 1..<levels {
                record = try SmartPoster(uri: "tel:1", otherRecords: [record]).record()
            }
            return record
        }
        let limits = NDEFLimits(maxNestingDepth: 3)
        #expect(try nest(3).parsed(mode: .strict, limits: limits) != .empty)
        #expect(throws: NDEFError.self) { try nest(4).parsed(mode: .strict, limits: limits) }
        do {
            _ = try nest(4).parsed(mode: .strict, limits: limits)
        } catch {
            // Three wrappers (one per enclosing poster), then the limit.
            let limit = NDEFError.limitExceeded(.nestingDepth, limit: 3, offset: 0)
            #expect(error == .invalidNestedMessage(recordType: "Sp", underlying: .invalidNestedMessage(
                recordType: "Sp", underlying: .invalidNestedMessage(recordType: "Sp", underlying: limit))))
        }
        // 1000 levels deep must fail cleanly, not exhaust the stack.
        #expect(throws: NDEFError.self) { try nest(1000).parsed(mode: .strict) }
    }
}
