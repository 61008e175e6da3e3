// sd-bus from libsystemd: only the SDBus module imports it (BlueZ, desktop notifications, portals).
#include <systemd/sd-bus.h>
