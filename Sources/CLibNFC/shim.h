// libnfc 1.8 public API.
#include <nfc/nfc.h>
