// libpcsclite opened on first use (lazy_library.h): every function the PCSC module calls, with
// pcsc-lite's own prototype, so that commands without a reader (fleet, decode, --version) do not
// load it. Without libpcsclite.so.1 a call returns SCARD_E_NO_SERVICE (what a client sees without
// pcscd) and pcsc_stringify_error says that the library could not be loaded.
#include "shim.h"

#include <lazy_library.h>

// Not RTLD_DEEPBIND: a reader library stays interposable by an LD_PRELOAD library, as when linked.
static nfctap_lazy_library pcsclite_library = {"libpcsclite.so.1", NULL, 0, 0};

NFCTAP_FORWARD(pcsclite_library, LONG, SCardEstablishContext, (DWORD dwScope, LPCVOID pvReserved1, LPCVOID pvReserved2, LPSCARDCONTEXT phContext), (dwScope, pvReserved1, pvReserved2, phContext), SCARD_E_NO_SERVICE)
NFCTAP_FORWARD(pcsclite_library, LONG, SCardReleaseContext, (SCARDCONTEXT hContext), (hContext), SCARD_E_NO_SERVICE)
NFCTAP_FORWARD(pcsclite_library, LONG, SCardIsValidContext, (SCARDCONTEXT hContext), (hContext), SCARD_E_NO_SERVICE)
NFCTAP_FORWARD(pcsclite_library, LONG, SCardConnect, (SCARDCONTEXT hContext, LPCSTR szReader, DWORD dwShareMode, DWORD dwPreferredProtocols, LPSCARDHANDLE phCard, LPDWORD pdwActiveProtocol), (hContext, szReader, dwShareMode, dwPreferredProtocols, phCard, pdwActiveProtocol), SCARD_E_NO_SERVICE)
NFCTAP_FORWARD(pcsclite_library, LONG, SCardReconnect, (SCARDHANDLE hCard, DWORD dwShareMode, DWORD dwPreferredProtocols, DWORD dwInitialization, LPDWORD pdwActiveProtocol), (hCard, dwShareMode, dwPreferredProtocols, dwInitialization, pdwActiveProtocol), SCARD_E_NO_SERVICE)
NFCTAP_FORWARD(pcsclite_library, LONG, SCardDisconnect, (SCARDHANDLE hCard, DWORD dwDisposition), (hCard, dwDisposition), SCARD_E_NO_SERVICE)
NFCTAP_FORWARD(pcsclite_library, LONG, SCardStatus, (SCARDHANDLE hCard, LPSTR mszReaderName, LPDWORD pcchReaderLen, LPDWORD pdwState, LPDWORD pdwProtocol, LPBYTE pbAtr, LPDWORD pcbAtrLen), (hCard, mszReaderName, pcchReaderLen, pdwState, pdwProtocol, pbAtr, pcbAtrLen), SCARD_E_NO_SERVICE)
NFCTAP_FORWARD(pcsclite_library, LONG, SCardGetStatusChange, (SCARDCONTEXT hContext, DWORD dwTimeout, SCARD_READERSTATE *rgReaderStates, DWORD cReaders), (hContext, dwTimeout, rgReaderStates, cReaders), SCARD_E_NO_SERVICE)
NFCTAP_FORWARD(pcsclite_library, LONG, SCardControl, (SCARDHANDLE hCard, DWORD dwControlCode, LPCVOID pbSendBuffer, DWORD cbSendLength, LPVOID pbRecvBuffer, DWORD cbRecvLength, LPDWORD lpBytesReturned), (hCard, dwControlCode, pbSendBuffer, cbSendLength, pbRecvBuffer, cbRecvLength, lpBytesReturned), SCARD_E_NO_SERVICE)
NFCTAP_FORWARD(pcsclite_library, LONG, SCardTransmit, (SCARDHANDLE hCard, const SCARD_IO_REQUEST *pioSendPci, LPCBYTE pbSendBuffer, DWORD cbSendLength, SCARD_IO_REQUEST *pioRecvPci, LPBYTE pbRecvBuffer, LPDWORD pcbRecvLength), (hCard, pioSendPci, pbSendBuffer, cbSendLength, pioRecvPci, pbRecvBuffer, pcbRecvLength), SCARD_E_NO_SERVICE)
NFCTAP_FORWARD(pcsclite_library, LONG, SCardListReaders, (SCARDCONTEXT hContext, LPCSTR mszGroups, LPSTR mszReaders, LPDWORD pcchReaders), (hContext, mszGroups, mszReaders, pcchReaders), SCARD_E_NO_SERVICE)
NFCTAP_FORWARD(pcsclite_library, LONG, SCardCancel, (SCARDCONTEXT hContext), (hContext), SCARD_E_NO_SERVICE)
NFCTAP_FORWARD(pcsclite_library, LONG, SCardGetAttrib, (SCARDHANDLE hCard, DWORD dwAttrId, LPBYTE pbAttr, LPDWORD pcbAttrLen), (hCard, dwAttrId, pbAttr, pcbAttrLen), SCARD_E_NO_SERVICE)
NFCTAP_FORWARD(pcsclite_library, const char *, pcsc_stringify_error, (const LONG pcscError), (pcscError), "libpcsclite.so.1 could not be loaded")

// The protocol control information SCARD_PCI_T0/T1/RAW point at (pcsc-lite's g_rgSCard*Pci, data
// of the library): the same two fields, held here. pcsc-lite reads only the fields.
static const SCARD_IO_REQUEST pci_t0 = {SCARD_PROTOCOL_T0, sizeof(SCARD_IO_REQUEST)};
static const SCARD_IO_REQUEST pci_t1 = {SCARD_PROTOCOL_T1, sizeof(SCARD_IO_REQUEST)};
static const SCARD_IO_REQUEST pci_raw = {SCARD_PROTOCOL_RAW, sizeof(SCARD_IO_REQUEST)};

const SCARD_IO_REQUEST *nfctap_pci_t0(void) { return &pci_t0; }
const SCARD_IO_REQUEST *nfctap_pci_t1(void) { return &pci_t1; }
const SCARD_IO_REQUEST *nfctap_pci_raw(void) { return &pci_raw; }

int nfctap_pcsclite_loadable(void) { return nfctap_lazy_symbol(&pcsclite_library, "SCardEstablishContext") != NULL; }
