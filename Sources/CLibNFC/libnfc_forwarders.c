// libnfc opened on first use (lazy_library.h): every function the LibNFC module calls, with
// libnfc's own prototype, so that commands without a reader (fleet, decode, --version) load
// neither libnfc nor its libusb. Without libnfc.so.6: nfc_init gives no context (LibNFCContext
// then throws), nfc_open NULL, nfc_list_devices 0 devices, int functions NFC_ESOFT, the void
// ones do nothing, nfc_version says that the library could not be loaded.
#include "shim.h"

#include <lazy_library.h>

// Not RTLD_DEEPBIND: libusb's open/ioctl must stay interposable by an LD_PRELOAD library (umockdev
// in the real-driver tests, USB tools a user preloads).
static nfctap_lazy_library libnfc_library = {"libnfc.so.6", NULL, 0, 0};

void nfc_init(nfc_context **context) {
    static void (*cached)(nfc_context **);
    void (*fn)(nfc_context **) = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);
    if (fn == NULL) {
        fn = (void (*)(nfc_context **))nfctap_lazy_symbol(&libnfc_library, "nfc_init");
        if (fn == NULL) {
            *context = NULL;
            return;
        }
        __atomic_store_n(&cached, fn, __ATOMIC_RELEASE);
    }
    fn(context);
}

NFCTAP_FORWARD_VOID(libnfc_library, nfc_exit, (nfc_context *context), (context))
NFCTAP_FORWARD(libnfc_library, nfc_device *, nfc_open, (nfc_context *context, const nfc_connstring connstring), (context, connstring), NULL)
NFCTAP_FORWARD_VOID(libnfc_library, nfc_close, (nfc_device *pnd), (pnd))
NFCTAP_FORWARD(libnfc_library, int, nfc_abort_command, (nfc_device *pnd), (pnd), NFC_ESOFT)
NFCTAP_FORWARD(libnfc_library, size_t, nfc_list_devices, (nfc_context *context, nfc_connstring connstrings[], size_t connstrings_len), (context, connstrings, connstrings_len), 0)
NFCTAP_FORWARD(libnfc_library, int, nfc_idle, (nfc_device *pnd), (pnd), NFC_ESOFT)
NFCTAP_FORWARD(libnfc_library, int, nfc_initiator_init, (nfc_device *pnd), (pnd), NFC_ESOFT)
NFCTAP_FORWARD(libnfc_library, int, nfc_initiator_select_passive_target, (nfc_device *pnd, const nfc_modulation nm, const uint8_t *pbtInitData, const size_t szInitData, nfc_target *pnt), (pnd, nm, pbtInitData, szInitData, pnt), NFC_ESOFT)
NFCTAP_FORWARD(libnfc_library, int, nfc_initiator_poll_target, (nfc_device *pnd, const nfc_modulation *pnmTargetTypes, const size_t szTargetTypes, const uint8_t uiPollNr, const uint8_t uiPeriod, nfc_target *pnt), (pnd, pnmTargetTypes, szTargetTypes, uiPollNr, uiPeriod, pnt), NFC_ESOFT)
NFCTAP_FORWARD(libnfc_library, int, nfc_initiator_deselect_target, (nfc_device *pnd), (pnd), NFC_ESOFT)
NFCTAP_FORWARD(libnfc_library, int, nfc_initiator_transceive_bytes, (nfc_device *pnd, const uint8_t *pbtTx, const size_t szTx, uint8_t *pbtRx, const size_t szRx, int timeout), (pnd, pbtTx, szTx, pbtRx, szRx, timeout), NFC_ESOFT)
NFCTAP_FORWARD(libnfc_library, int, nfc_initiator_target_is_present, (nfc_device *pnd, const nfc_target *pnt), (pnd, pnt), NFC_ESOFT)
NFCTAP_FORWARD(libnfc_library, int, nfc_device_get_last_error, (const nfc_device *pnd), (pnd), NFC_ESOFT)
NFCTAP_FORWARD(libnfc_library, const char *, nfc_device_get_name, (nfc_device *pnd), (pnd), "")
NFCTAP_FORWARD(libnfc_library, int, nfc_device_set_property_bool, (nfc_device *pnd, const nfc_property property, const bool bEnable), (pnd, property, bEnable), NFC_ESOFT)
NFCTAP_FORWARD(libnfc_library, const char *, nfc_version, (void), (), "unknown (libnfc.so.6 could not be loaded)")
// Only used on frames for an open device, so the library is loaded by then.
NFCTAP_FORWARD_VOID(libnfc_library, iso14443a_crc_append, (uint8_t *pbtData, size_t szLen), (pbtData, szLen))

int nfctap_libnfc_loadable(void) { return nfctap_lazy_symbol(&libnfc_library, "nfc_init") != NULL; }
