import ReaderCore
import Testing

/// Issue 12 item 3: one rule for `--reader` everywhere.
@Suite("ReaderSelection: several queries, late readers, libnfc names")
struct ReaderSelectionRuleTests {
    let acs = ReaderInfo(name: "ACS ACR122U PICC Interface 00 00", backend: .pcsc)
    let v0 = ReaderInfo(name: "Virtual PCD 00 00", backend: .pcsc)
    let v1 = ReaderInfo(name: "Virtual PCD 00 01", backend: .pcsc)
    let pn532 = ReaderInfo(name: "libnfc:pn532_uart:/dev/pts/3", backend: .libnfc)

    @Test("no query selects every reader; each query one reader, in attachment order")
    func queries() throws {
        #expect(try ReaderSelection.select([], from: [acs, v0, v1]) == [acs, v0, v1])
        #expect(try ReaderSelection.select(["00 01", "acr122"], from: [acs, v0, v1]) == [acs, v1])
        #expect(try ReaderSelection.select(["Virtual PCD 00 00"], from: [acs, v0, v1]) == [v0])
        #expect(try ReaderSelection.select(["libnfc:pn532_uart:/dev/pts/3"], from: [acs, v0, pn532]) == [pn532])
        // A query matching nothing (yet) selects nothing; the session decides whether that is an error.
        #expect(try ReaderSelection.select(["SCM"], from: [acs, v0]) == [])
    }

    @Test("a part of several names is refused, naming them")
    func ambiguous() {
        #expect(throws: ReaderError.ambiguousReader("virtual", matches: [v0.name, v1.name])) {
            try ReaderSelection.select(["acr", "virtual"], from: [acs, v0, v1])
        }
        #expect(ReaderError.ambiguousReader("virtual", matches: [v0.name, v1.name]).description
                == "\"virtual\" matches several readers: Virtual PCD 00 00, Virtual PCD 00 01")
    }

    @Test("a reader arriving later joins only if its query still names one reader")
    func lateReaders() {
        #expect(ReaderSelection.admits(v1, queries: ["virtual"], current: []))
        #expect(!ReaderSelection.admits(v1, queries: ["virtual"], current: [v0]))
        #expect(ReaderSelection.admits(v1, queries: ["Virtual PCD 00 01"], current: [v0]))
        #expect(!ReaderSelection.admits(acs, queries: ["virtual"], current: []))
        #expect(ReaderSelection.admits(acs, queries: [], current: [v0]))
        #expect(ReaderSelection.admits(v0, queries: ["virtual"], current: [v0]))
    }

    @Test("libnfc:<connstring> queries name devices to open, once each; other queries none")
    func libnfcDevices() {
        #expect(ReaderSelection.libnfcDevices(in: ["acr122", "libnfc:pn532_uart:/dev/pts/3", "libnfc:",
                                                   "libnfc:pn532_uart:/dev/pts/3", "libnfc:pn533_usb:001:004"])
                == ["pn532_uart:/dev/pts/3", "pn533_usb:001:004"])
        #expect(ReaderSelection.libnfcDevices(in: ["Virtual PCD"]).isEmpty)
    }

    @Test("matching: exact or case-insensitive part; an empty query matches nothing")
    func matching() {
        #expect(ReaderSelection.matches("acr122", name: acs.name))
        #expect(ReaderSelection.matches(acs.name, name: acs.name))
        #expect(!ReaderSelection.matches("", name: acs.name))
        #expect(!ReaderSelection.matches("scm", name: acs.name))
    }
}
