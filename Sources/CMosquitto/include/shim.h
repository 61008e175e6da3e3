// Eclipse Mosquitto's client library (Debian: libmosquitto-dev), MQTT 3.1.1 and 5.
#include <mosquitto.h>
