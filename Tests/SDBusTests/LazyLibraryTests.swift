import CLazyLibrary
import CSDBus
import Glibc
import Testing

/// `CLazyLibrary` (docs/architecture.md "Start-up"): sd-bus and libmosquitto are opened on first
/// use. A library that cannot be opened makes the call fail, with ELIBACC, instead of the process
/// failing to start; one that can be is opened once and gives its functions.
@Suite struct LazyLibraryTests {
    /// A library description whose soname stays alive for the test (the struct keeps the pointer).
    final class Library {
        let name: UnsafeMutablePointer<CChar>
        var library: nfctap_lazy_library

        init(_ soname: String) {
            name = strdup(soname)
            library = nfctap_lazy_library(soname: name, handle: nil, state: 0, deep_bind: 1)
        }

        deinit { free(name) }

        func symbol(_ symbol: String) -> UnsafeMutableRawPointer? { nfctap_lazy_symbol(&library, symbol) }
    }

    @Test func aMissingLibraryFailsTheCallWithELIBACC() {
        let missing = Library("libnfctap-no-such-library.so.0")
        errno = 0
        #expect(missing.symbol("sd_bus_open_system") == nil)
        #expect(errno == ELIBACC)
        #expect(missing.library.state == -1)
        // Tried once: later calls fail the same way without opening again.
        #expect(missing.symbol("sd_bus_unref") == nil && missing.library.state == -1)
    }

    @Test func libsystemdIsOpenedOnceAndGivesItsFunctions() {
        let systemd = Library("libsystemd.so.0")
        #expect(systemd.library.state == 0, "nothing opened before the first call")
        #expect(systemd.symbol("sd_bus_open_system") != nil)
        #expect(systemd.library.state == 1)
        let handle = systemd.library.handle
        #expect(systemd.symbol("sd_bus_unref") != nil && systemd.library.handle == handle)
        errno = 0
        #expect(systemd.symbol("sd_bus_no_such_function") == nil && errno == ELIBACC)
    }

    /// The forwarders themselves: an sd-bus call through CSDBus reaches the real library.
    @Test func theSDBusForwardersReachLibsystemd() {
        var bus: OpaquePointer?
        #expect(sd_bus_new(&bus) >= 0 && bus != nil)
        _ = sd_bus_unref(bus)
    }
}
