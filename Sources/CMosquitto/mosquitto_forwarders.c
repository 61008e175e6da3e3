// libmosquitto opened on first use (lazy_library.h): every function the MQTT module calls, with
// the library's own prototype. Without libmosquitto.so.1 a call fails as libmosquitto reports
// errors: MOSQ_ERR_ERRNO with errno ELIBACC for an int, NULL (errno ELIBACC) for mosquitto_new,
// -1 for mosquitto_socket, false for mosquitto_want_write; the two string functions say so.
#include "shim.h"

#include <errno.h>
#include <lazy_library.h>

static nfctap_lazy_library mosquitto_library = {"libmosquitto.so.1", NULL, 0};

NFCTAP_FORWARD(mosquitto_library, const char *, mosquitto_connack_string, (int connack_code), (connack_code), "unknown (libmosquitto.so.1 could not be loaded)")
NFCTAP_FORWARD(mosquitto_library, int, mosquitto_connect_async, (struct mosquitto *mosq, const char *host, int port, int keepalive), (mosq, host, port, keepalive), MOSQ_ERR_ERRNO)
NFCTAP_FORWARD_VOID(mosquitto_library, mosquitto_connect_callback_set, (struct mosquitto *mosq, void (*on_connect)(struct mosquitto *, void *, int)), (mosq, on_connect))
NFCTAP_FORWARD_VOID(mosquitto_library, mosquitto_destroy, (struct mosquitto *mosq), (mosq))
NFCTAP_FORWARD(mosquitto_library, int, mosquitto_disconnect, (struct mosquitto *mosq), (mosq), MOSQ_ERR_ERRNO)
NFCTAP_FORWARD_VOID(mosquitto_library, mosquitto_disconnect_callback_set, (struct mosquitto *mosq, void (*on_disconnect)(struct mosquitto *, void *, int)), (mosq, on_disconnect))
NFCTAP_FORWARD(mosquitto_library, int, mosquitto_int_option, (struct mosquitto *mosq, enum mosq_opt_t option, int value), (mosq, option, value), MOSQ_ERR_ERRNO)
NFCTAP_FORWARD(mosquitto_library, int, mosquitto_lib_init, (void), (), MOSQ_ERR_ERRNO)
NFCTAP_FORWARD(mosquitto_library, int, mosquitto_loop, (struct mosquitto *mosq, int timeout, int max_packets), (mosq, timeout, max_packets), MOSQ_ERR_ERRNO)
NFCTAP_FORWARD(mosquitto_library, int, mosquitto_loop_misc, (struct mosquitto *mosq), (mosq), MOSQ_ERR_ERRNO)
NFCTAP_FORWARD(mosquitto_library, int, mosquitto_loop_read, (struct mosquitto *mosq, int max_packets), (mosq, max_packets), MOSQ_ERR_ERRNO)
NFCTAP_FORWARD(mosquitto_library, int, mosquitto_loop_write, (struct mosquitto *mosq, int max_packets), (mosq, max_packets), MOSQ_ERR_ERRNO)
NFCTAP_FORWARD_VOID(mosquitto_library, mosquitto_message_callback_set, (struct mosquitto *mosq, void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *)), (mosq, on_message))
NFCTAP_FORWARD(mosquitto_library, struct mosquitto *, mosquitto_new, (const char *id, bool clean_session, void *obj), (id, clean_session, obj), NULL)
NFCTAP_FORWARD(mosquitto_library, int, mosquitto_publish, (struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload, int qos, bool retain), (mosq, mid, topic, payloadlen, payload, qos, retain), MOSQ_ERR_ERRNO)
NFCTAP_FORWARD_VOID(mosquitto_library, mosquitto_publish_callback_set, (struct mosquitto *mosq, void (*on_publish)(struct mosquitto *, void *, int)), (mosq, on_publish))
NFCTAP_FORWARD(mosquitto_library, int, mosquitto_socket, (struct mosquitto *mosq), (mosq), -1)
NFCTAP_FORWARD(mosquitto_library, const char *, mosquitto_strerror, (int mosq_errno), (mosq_errno), "libmosquitto.so.1 could not be loaded")
NFCTAP_FORWARD(mosquitto_library, int, mosquitto_subscribe, (struct mosquitto *mosq, int *mid, const char *sub, int qos), (mosq, mid, sub, qos), MOSQ_ERR_ERRNO)
NFCTAP_FORWARD_VOID(mosquitto_library, mosquitto_subscribe_callback_set, (struct mosquitto *mosq, void (*on_subscribe)(struct mosquitto *, void *, int, int, const int *)), (mosq, on_subscribe))
NFCTAP_FORWARD(mosquitto_library, int, mosquitto_tls_insecure_set, (struct mosquitto *mosq, bool value), (mosq, value), MOSQ_ERR_ERRNO)
NFCTAP_FORWARD(mosquitto_library, int, mosquitto_tls_opts_set, (struct mosquitto *mosq, int cert_reqs, const char *tls_version, const char *ciphers), (mosq, cert_reqs, tls_version, ciphers), MOSQ_ERR_ERRNO)
NFCTAP_FORWARD(mosquitto_library, int, mosquitto_tls_set, (struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile, const char *keyfile, int (*pw_callback)(char *buf, int size, int rwflag, void *userdata)), (mosq, cafile, capath, certfile, keyfile, pw_callback), MOSQ_ERR_ERRNO)
NFCTAP_FORWARD(mosquitto_library, int, mosquitto_username_pw_set, (struct mosquitto *mosq, const char *username, const char *password), (mosq, username, password), MOSQ_ERR_ERRNO)
NFCTAP_FORWARD(mosquitto_library, bool, mosquitto_want_write, (struct mosquitto *mosq), (mosq), false)
NFCTAP_FORWARD(mosquitto_library, int, mosquitto_will_set, (struct mosquitto *mosq, const char *topic, int payloadlen, const void *payload, int qos, bool retain), (mosq, topic, payloadlen, payload, qos, retain), MOSQ_ERR_ERRNO)
NFCTAP_FORWARD_VOID(mosquitto_library, mosquitto_user_data_set, (struct mosquitto *mosq, void *obj), (mosq, obj))
