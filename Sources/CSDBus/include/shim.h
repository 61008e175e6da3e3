// libsystemd (Debian: libsystemd-dev): sd-bus for the SDBus module (BlueZ, desktop notifications,
// portals), sd-id128 for Fleet's station id.
#include <systemd/sd-bus.h>
#include <systemd/sd-id128.h>
