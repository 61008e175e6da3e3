// sd-bus from libsystemd: the D-Bus client used for BlueZ.
#include <systemd/sd-bus.h>
