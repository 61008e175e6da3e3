import CLibNFC
import CPCSCLite
import Glibc
import Testing

/// libpcsclite and libnfc are opened on first use (CPCSCLite, CLibNFC: CLazyLibrary forwarders),
/// so a command without a reader loads neither. The forwarders reach the real libraries, and the
/// protocol control information the PC/SC module sends with each APDU is pcsc-lite's own.
@Suite struct LazyReaderLibrariesTests {
    @Test func theProtocolControlInformationIsPCSCLitesOwn() throws {
        let handle = try #require(dlopen("libpcsclite.so.1", RTLD_NOW | RTLD_LOCAL))
        defer { dlclose(handle) }
        for (name, ours) in [("g_rgSCardT0Pci", nfctap_pci_t0()), ("g_rgSCardT1Pci", nfctap_pci_t1()), ("g_rgSCardRawPci", nfctap_pci_raw())] {
            let theirs = try #require(dlsym(handle, name)).assumingMemoryBound(to: SCARD_IO_REQUEST.self).pointee
            let mine = try #require(ours).pointee
            #expect(mine.dwProtocol == theirs.dwProtocol && mine.cbPciLength == theirs.cbPciLength, "\(name)")
        }
    }

    @Test func theForwardersReachTheLibraries() {
        #expect(String(cString: nfc_version()).hasPrefix("1."), "libnfc's own version string")
        #expect(String(cString: pcsc_stringify_error(0)) == "Command successful.")
        // A real libnfc context: the forwarder of nfc_init reached libnfc.
        var context: OpaquePointer?
        nfc_init(&context)
        #expect(context != nil)
        if let context { nfc_exit(context) }
    }
}
