@testable import CoreNFCLinux
import Foundation
import Testing

@Suite("Core NFC surface details")
struct CoreNFCSurfaceTests {
    @Test("NFCMiFareFamily and NFCNDEFStatus have Apple's raw values")
    func rawValues() {
        #expect([NFCMiFareFamily.unknown, .ultralight, .plus, .desfire].map(\.rawValue) == [1, 2, 3, 4])
        #expect([NFCNDEFStatus.notSupported, .readWrite, .readOnly].map(\.rawValue) == [1, 2, 3])
    }

    /// iOS code switches over all four cases; this must compile and route each case.
    private func kind(_ tag: NFCTag) -> String {
        switch tag {
        case .feliCa: return "feliCa"
        case .iso7816: return "iso7816"
        case .iso15693: return "iso15693"
        case .miFare: return "miFare"
        }
    }

    @Test("NFCTag switches over all four cases; Linux produces .miFare and .iso7816")
    func tagSwitch() {
        let h = Harness(readers: ["A", "B"])
        let delegate = TagDelegate()
        let session = h.tagSession(delegate)!
        h.backend.place(ntag(), on: "A")
        h.backend.place(type4Card(), on: "B")
        session.begin()
        h.settle(session)
        #expect(delegate.lastTags.map(kind) == ["miFare", "iso7816"])
        session.invalidate()
        h.settle(session)
    }

    @Test("kiosk mode begins with no reader and reads once one is plugged in")
    func kioskStartsEmpty() {
        let h = Harness(readers: [])
        h.configuration.readerRemovalEndsSession = false
        h.configuration.timeLimit = nil
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        h.settle(session)
        #expect(delegate.log.summary == ["active"])
        h.backend.plug("Reader A")
        h.backend.place(ntag(message: "0A"), on: "Reader A")
        h.settle(session)
        #expect(delegate.log.summary == ["active", "messages(0A)"])
        session.invalidate()
        h.settle(session)
    }

    @Test("a tag object from another session is rejected with 3")
    func foreignTag() {
        let h1 = Harness(), h2 = Harness()
        let d1 = ReadWriteDelegate(), d2 = ReadWriteDelegate()
        let s1 = h1.ndefSession(d1), s2 = h2.ndefSession(d2)
        h1.backend.place(ntag(), on: "Reader A")
        s1.begin(); s2.begin()
        h1.settle(s1); h2.settle(s2)
        let done = Completion<(any Error)?>()
        s2.connect(to: d1.lastTags[0]) { done.fulfil($0) }
        #expect(code(done.wait()!) == 3)
        s1.invalidate(); s2.invalidate()
        h1.settle(s1); h2.settle(s2)
    }
}
