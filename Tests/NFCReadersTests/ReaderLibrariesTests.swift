import CLibNFC
import CPCSCLite
import Glibc
import Testing

/// libpcsclite and libnfc are linked (CPCSCLite, CLibNFC): the shim's helpers reach the
/// libraries, and the protocol control information the PC/SC module sends with each APDU is
/// pcsc-lite's own data (SCARD_PCI_T0/T1/RAW, macros Swift does not import).
@Suite struct ReaderLibrariesTests {
    @Test func theProtocolControlInformationIsPCSCLitesOwn() throws {
        let process = try #require(dlopen(nil, RTLD_NOW))
        for (name, ours, protocolCode) in [("g_rgSCardT0Pci", nfctap_pci_t0(), SCARD_PROTOCOL_T0),
                                           ("g_rgSCardT1Pci", nfctap_pci_t1(), SCARD_PROTOCOL_T1),
                                           ("g_rgSCardRawPci", nfctap_pci_raw(), SCARD_PROTOCOL_RAW)] {
            let theirs = try #require(dlsym(process, name))
            let mine = try #require(ours)
            #expect(UnsafeRawPointer(mine) == UnsafeRawPointer(theirs), "\(name)")
            #expect(mine.pointee.dwProtocol == DWORD(protocolCode), "\(name)")
        }
    }

    @Test func theLibrariesAreLinked() {
        #expect(String(cString: nfc_version()).hasPrefix("1."), "libnfc's own version string")
        #expect(String(cString: pcsc_stringify_error(0)) == "Command successful.")
        var context: OpaquePointer?
        nfc_init(&context)
        #expect(context != nil)
        if let context { nfc_exit(context) }
    }
}
