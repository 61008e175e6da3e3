// Forwarder to pcsc-lite's header (see pcsclite.h in this directory).
#include <PCSC/wintypes.h>
