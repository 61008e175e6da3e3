// Shared libraries opened on first use instead of at process start: libsystemd (sd-bus) and
// libmosquitto. (libpcsclite and libnfc are linked; this target goes once CSDBus and CMosquitto
// link their libraries too.)
//
// CSDBus and CMosquitto define each function the Swift wrappers call, with the library's own
// prototype, as a forwarder: the first call opens the library (RTLD_LOCAL: its symbols never
// clash with ours) and looks the function up; a library that cannot be opened makes the call
// fail the way that library reports errors (documented beside each forwarder table).
#ifndef NFCTAP_LAZY_LIBRARY_H
#define NFCTAP_LAZY_LIBRARY_H

#include <stddef.h>

typedef struct nfctap_lazy_library {
    const char *soname;   // e.g. "libsystemd.so.0"
    void *handle;         // set once by nfctap_lazy_symbol
    int state;            // 0 not tried, 1 open, -1 failed (guarded by the lock in the .c)
    // Unused: RTLD_DEEPBIND is no longer asked for (the field stays for the initialisers of
    // CSDBus and CMosquitto until they stop using this target).
    int deep_bind;
} nfctap_lazy_library;

/// The address of `name` in `library`, opening it on first use; NULL when the library or the
/// symbol is missing (errno is then ELIBACC).
void *nfctap_lazy_symbol(nfctap_lazy_library *library, const char *name);

/// Declares the forwarder `ret name params` calling `args` through the library's own `name`,
/// returning `failure` when it cannot be reached. The resolved pointer is cached atomically.
#define NFCTAP_FORWARD(library, ret, name, params, args, failure)                           \
    ret name params {                                                                        \
        static ret(*cached) params;                                                          \
        ret(*fn) params = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);                        \
        if (fn == NULL) {                                                                    \
            fn = (ret(*) params)nfctap_lazy_symbol(&(library), #name);                       \
            if (fn == NULL) return failure;                                                  \
            __atomic_store_n(&cached, fn, __ATOMIC_RELEASE);                                 \
        }                                                                                    \
        return fn args;                                                                      \
    }

/// The same for a function returning nothing (a missing library makes it a no-op).
#define NFCTAP_FORWARD_VOID(library, name, params, args)                                     \
    void name params {                                                                       \
        static void(*cached) params;                                                         \
        void(*fn) params = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);                       \
        if (fn == NULL) {                                                                    \
            fn = (void(*) params)nfctap_lazy_symbol(&(library), #name);                      \
            if (fn == NULL) return;                                                          \
            __atomic_store_n(&cached, fn, __ATOMIC_RELEASE);                                 \
        }                                                                                    \
        fn args;                                                                             \
    }

#endif
