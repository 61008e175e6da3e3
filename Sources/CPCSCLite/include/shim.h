// pcsc-lite headers (libpcsclite-dev), by their path under /usr/include; the headers they include
// in turn are found through the forwarders beside this file.
#include <PCSC/winscard.h>
#include <PCSC/reader.h>

// Swift does not import macros that are casts or address-of expressions; these mirror them.

/// SCARD_PCI_T0 / SCARD_PCI_T1 / SCARD_PCI_RAW (`&g_rgSCardT0Pci` ..., data of libpcsclite).
static inline const SCARD_IO_REQUEST *nfctap_pci_t0(void) { return SCARD_PCI_T0; }
static inline const SCARD_IO_REQUEST *nfctap_pci_t1(void) { return SCARD_PCI_T1; }
static inline const SCARD_IO_REQUEST *nfctap_pci_raw(void) { return SCARD_PCI_RAW; }

/// SCARD_CTL_CODE(code) from reader.h.
static inline DWORD nfctap_scard_ctl_code(DWORD code) { return SCARD_CTL_CODE(code); }

/// INFINITE (0xFFFFFFFF): SCardGetStatusChange without a timeout.
static inline DWORD nfctap_infinite(void) { return INFINITE; }

/// SCARD_AUTOALLOCATE ((DWORD)-1).
static inline DWORD nfctap_autoallocate(void) { return SCARD_AUTOALLOCATE; }

/// MAX_BUFFER_SIZE_EXTENDED: the largest extended-APDU reply (64 KiB + header + SW).
static inline DWORD nfctap_max_buffer_size_extended(void) { return MAX_BUFFER_SIZE_EXTENDED; }
