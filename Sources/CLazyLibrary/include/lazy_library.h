// A shared library opened on its first call instead of at process start. libsystemd (sd-bus,
// sd-id128) and libmosquitto bring eight more libraries (OpenSSL, libgcrypt, compression) that
// every nfctap command would otherwise load and relocate, although only the D-Bus, MQTT and
// station-id paths use them (docs/architecture.md, "Modules").
//
// CSDBus and CMosquitto define each function the Swift wrappers call, with the library's own
// prototype, as a forwarder: the first call opens the library (RTLD_LOCAL) and looks the function
// up; when the library cannot be opened the call fails as that library reports errors.
#ifndef NFCTAP_LAZY_LIBRARY_H
#define NFCTAP_LAZY_LIBRARY_H

typedef struct nfctap_lazy_library {
    const char *soname;  // e.g. "libsystemd.so.0"
    void *handle;        // set once by nfctap_lazy_symbol
    int state;           // 0 not tried, 1 open, -1 failed (guarded by the lock in the .c)
} nfctap_lazy_library;

/// The address of `name` in `library`, opening it on first use; NULL when the library or the
/// symbol is missing (errno is then ELIBACC).
void *nfctap_lazy_symbol(nfctap_lazy_library *library, const char *name);

/// Defines `ret name params` as a call of the library's own `name` with `args`, returning `failure`
/// when it cannot be reached. The looked-up address is kept (atomically) for later calls.
#define NFCTAP_FORWARD(library, ret, name, params, args, failure)                            \
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

/// The same for a function returning nothing (without the library it does nothing).
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
