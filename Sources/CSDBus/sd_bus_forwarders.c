// libsystemd opened on first use (lazy_library.h): every sd-bus and sd-id128 function the SDBus
// and Fleet modules call, with libsystemd's own prototype. Without libsystemd.so.0 a call fails as
// sd-bus reports errors: -ELIBACC for an int, NULL for a pointer (sd_bus_error_free does nothing).
#include "shim.h"

#include <errno.h>
#include <lazy_library.h>

static nfctap_lazy_library sd_bus_library = {"libsystemd.so.0", NULL, 0};

NFCTAP_FORWARD(sd_bus_library, int, sd_bus_add_match, (sd_bus *bus, sd_bus_slot **slot, const char *match, sd_bus_message_handler_t callback, void *userdata), (bus, slot, match, callback, userdata), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_add_object, (sd_bus *bus, sd_bus_slot **slot, const char *path, sd_bus_message_handler_t callback, void *userdata), (bus, slot, path, callback, userdata), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_call_async, (sd_bus *bus, sd_bus_slot **slot, sd_bus_message *m, sd_bus_message_handler_t callback, void *userdata, uint64_t usec), (bus, slot, m, callback, userdata, usec), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, sd_bus*, sd_bus_close_unref, (sd_bus *bus), (bus), NULL)
NFCTAP_FORWARD_VOID(sd_bus_library, sd_bus_error_free, (sd_bus_error *e), (e))
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_error_set, (sd_bus_error *e, const char *name, const char *message), (e, name, message), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, sd_bus*, sd_bus_flush_close_unref, (sd_bus *bus), (bus), NULL)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_get_events, (sd_bus *bus), (bus), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_get_fd, (sd_bus *bus), (bus), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_get_timeout, (sd_bus *bus, uint64_t *timeout_usec), (bus, timeout_usec), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_get_unique_name, (sd_bus *bus, const char **unique), (bus, unique), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_message_append_basic, (sd_bus_message *m, char type, const void *p), (m, type, p), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_message_close_container, (sd_bus_message *m), (m), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_message_enter_container, (sd_bus_message *m, char type, const char *contents), (m, type, contents), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_message_exit_container, (sd_bus_message *m), (m), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, sd_bus*, sd_bus_message_get_bus, (sd_bus_message *m), (m), NULL)
NFCTAP_FORWARD(sd_bus_library, const sd_bus_error*, sd_bus_message_get_error, (sd_bus_message *m), (m), NULL)
NFCTAP_FORWARD(sd_bus_library, const char*, sd_bus_message_get_interface, (sd_bus_message *m), (m), NULL)
NFCTAP_FORWARD(sd_bus_library, const char*, sd_bus_message_get_member, (sd_bus_message *m), (m), NULL)
NFCTAP_FORWARD(sd_bus_library, const char*, sd_bus_message_get_path, (sd_bus_message *m), (m), NULL)
NFCTAP_FORWARD(sd_bus_library, const char*, sd_bus_message_get_sender, (sd_bus_message *m), (m), NULL)
NFCTAP_FORWARD(sd_bus_library, const char*, sd_bus_message_get_signature, (sd_bus_message *m, int complete), (m, complete), NULL)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_message_is_method_error, (sd_bus_message *m, const char *name), (m, name), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_message_new_method_call, (sd_bus *bus, sd_bus_message **m, const char *destination, const char *path, const char *interface, const char *member), (bus, m, destination, path, interface, member), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_message_new_method_error, (sd_bus_message *call, sd_bus_message **m, const sd_bus_error *e), (call, m, e), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_message_new_method_return, (sd_bus_message *call, sd_bus_message **m), (call, m), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_message_open_container, (sd_bus_message *m, char type, const char *contents), (m, type, contents), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_message_peek_type, (sd_bus_message *m, char *type, const char **contents), (m, type, contents), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_message_read_array, (sd_bus_message *m, char type, const void **ptr, size_t *size), (m, type, ptr, size), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_message_read_basic, (sd_bus_message *m, char type, void *p), (m, type, p), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_message_rewind, (sd_bus_message *m, int complete), (m, complete), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_message_seal, (sd_bus_message *m, uint64_t cookie, uint64_t timeout_usec), (m, cookie, timeout_usec), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, sd_bus_message*, sd_bus_message_unref, (sd_bus_message *m), (m), NULL)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_new, (sd_bus **ret), (ret), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_open_system, (sd_bus **ret), (ret), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_process, (sd_bus *bus, sd_bus_message **r), (bus, r), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_reply_method_error, (sd_bus_message *call, const sd_bus_error *e), (call, e), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_send, (sd_bus *bus, sd_bus_message *m, uint64_t *cookie), (bus, m, cookie), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_set_address, (sd_bus *bus, const char *address), (bus, address), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_set_bus_client, (sd_bus *bus, int b), (bus, b), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_set_fd, (sd_bus *bus, int input_fd, int output_fd), (bus, input_fd, output_fd), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, sd_bus_slot*, sd_bus_slot_unref, (sd_bus_slot *slot), (slot), NULL)
NFCTAP_FORWARD(sd_bus_library, int, sd_bus_start, (sd_bus *bus), (bus), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, sd_bus*, sd_bus_unref, (sd_bus *bus), (bus), NULL)

// sd-id128 (Fleet's station id).
NFCTAP_FORWARD(sd_bus_library, int, sd_id128_from_string, (const char *s, sd_id128_t *ret), (s, ret), -ELIBACC)
NFCTAP_FORWARD(sd_bus_library, int, sd_id128_get_machine_app_specific, (sd_id128_t app_id, sd_id128_t *ret), (app_id, ret), -ELIBACC)
