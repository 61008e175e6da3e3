// pcsc-lite headers; pkg-config libpcsclite adds -I/usr/include/PCSC.
#include <winscard.h>
#include <reader.h>
