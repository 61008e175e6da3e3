// libnfc 1.8 public API.
#include <nfc/nfc.h>
#include <stdlib.h>
#include <string.h>

// libnfc's types are declared under `#pragma pack(1)`. The helpers below copy fields out of
// (and build) those packed structs in C, so Swift never reads a misaligned field itself.

/// Size of one connstring slot (`NFC_BUFSIZE_CONNSTRING`).
static inline size_t nfctap_connstring_size(void) { return NFC_BUFSIZE_CONNSTRING; }

/// Wraps nfc_list_devices: fills `buffer` (maxDevices * NFC_BUFSIZE_CONNSTRING bytes) with
/// NUL-terminated connstrings; returns how many were found.
static inline size_t nfctap_list_devices(nfc_context *context, char *buffer, size_t maxDevices) {
    return nfc_list_devices(context, (nfc_connstring *)buffer, maxDevices);
}

/// An ISO 14443A, 106 kbps modulation.
static inline nfc_modulation nfctap_modulation_iso14443a_106(void) {
    nfc_modulation nm;
    nm.nmt = NMT_ISO14443A;
    nm.nbr = NBR_106;
    return nm;
}

/// Copies an ISO 14443A target's fields out of a packed `nfc_target`.
/// `uid` must hold 10 bytes and `ats` 254; lengths are clamped to those sizes.
static inline int nfctap_target_iso14443a(const nfc_target *target, uint8_t atqa[2], uint8_t *sak,
                                          uint8_t *uid, size_t *uidLength,
                                          uint8_t *ats, size_t *atsLength) {
    if (target->nm.nmt != NMT_ISO14443A) return 0;
    nfc_iso14443a_info info;
    memcpy(&info, &target->nti.nai, sizeof(info));
    atqa[0] = info.abtAtqa[0];
    atqa[1] = info.abtAtqa[1];
    *sak = info.btSak;
    size_t u = info.szUidLen > sizeof(info.abtUid) ? sizeof(info.abtUid) : info.szUidLen;
    memcpy(uid, info.abtUid, u);
    *uidLength = u;
    size_t a = info.szAtsLen > sizeof(info.abtAts) ? sizeof(info.abtAts) : info.szAtsLen;
    memcpy(ats, info.abtAts, a);
    *atsLength = a;
    return 1;
}

/// A FeliCa modulation at 212 (`nbr212` true) or 424 kbps.
static inline nfc_modulation nfctap_modulation_felica(int nbr212) {
    nfc_modulation nm;
    nm.nmt = NMT_FELICA;
    nm.nbr = nbr212 ? NBR_212 : NBR_424;
    return nm;
}

/// Copies a FeliCa target's Polling answer out of a packed `nfc_target`: IDm, PMm (8 bytes each)
/// and the system code (2 bytes, only when `*hasSystemCode` is set: libnfc keeps it for LEN > 18),
/// with the answer's LEN and response code. libnfc copies IDm and PMm whatever LEN says, so only
/// a LEN of 18 or 20 and code 01 make them the card's (the caller checks).
static inline int nfctap_target_felica(const nfc_target *target, uint8_t idm[8], uint8_t pmm[8],
                                       uint8_t systemCode[2], int *hasSystemCode,
                                       size_t *length, uint8_t *responseCode) {
    if (target->nm.nmt != NMT_FELICA) return 0;
    nfc_felica_info info;
    memcpy(&info, &target->nti.nfi, sizeof(info));
    *length = info.szLen;
    *responseCode = info.btResCode;
    memcpy(idm, info.abtId, 8);
    memcpy(pmm, info.abtPad, 8);
    memcpy(systemCode, info.abtSysCode, 2);
    *hasSystemCode = info.szLen > 18;
    return 1;
}

/// Allocates a zeroed `nfc_target` (free with `free`).
static inline nfc_target *nfctap_target_new(void) {
    return (nfc_target *)calloc(1, sizeof(nfc_target));
}
