import NFCTags
import ReaderCore
import TagEmulation
import Testing

@Suite("Type 5 on a reader without ISO 15693: the connection says so")
struct Type5UnsupportedReaderTests {
    @Test func anACR122UConnectionNamesTheReadersThatCan() throws {
        let backend = VirtualReaderBackend(readerNames: ["ACR122U"], profile: .acr122u)
        let detected = try #require(backend.place(VirtualISO15693Tag.formatted(.icodeSLIX2, uid: VirtualISO15693Tag.exampleUID(.icodeSLIX2)), on: "ACR122U"))
        #expect(detected.technology == .type5)
        let connection = try backend.connect(to: detected, exclusive: false)
        defer { connection.disconnect() }
        #expect(connection.iso15693 == nil)
        do {
            _ = try connection.ndefOperations()
            Issue.record("NDEF operations on a reader without ISO 15693")
        } catch {
            #expect("\(error)".contains("cannot pass ISO 15693 commands; use an ISO 15693 reader such as an HID OMNIKEY 5022/5422"))
        }
    }
}
