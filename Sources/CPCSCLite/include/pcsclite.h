// pcsc-lite's headers include each other as <pcsclite.h> and <wintypes.h>, which needs
// /usr/include/PCSC on the search path. Package.swift does not take that path from pkg-config (its
// libpcsclite.pc adds `-pthread`, a flag SwiftPM refuses with a warning on every build): these two
// forwarders, on the module's public include path, send those includes to the real headers.
#include <PCSC/pcsclite.h>
