#define _GNU_SOURCE  // RTLD_DEEPBIND
#include "lazy_library.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>

static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;

void *nfctap_lazy_symbol(nfctap_lazy_library *library, const char *name) {
    pthread_mutex_lock(&open_lock);
    if (library->state == 0) {
        // RTLD_DEEPBIND (where `deep_bind` asks for it): the library's own symbol look-ups
        // (OpenSSL's thousands of relocations) search its own dependencies first instead of passing
        // every object of the process first: 1.9 M fewer instructions to open libmosquitto
        // (docs/architecture.md "Start-up"). The same bindings: the release nfctap exports no
        // symbol and no library it links (libc excepted, which both orders reach) defines one of
        // theirs, so nothing is interposed either way; but an LD_PRELOAD library is passed over.
        int flags = RTLD_NOW | RTLD_LOCAL | (library->deep_bind ? RTLD_DEEPBIND : 0);
        library->handle = dlopen(library->soname, flags);
        library->state = library->handle != NULL ? 1 : -1;
    }
    void *handle = library->state == 1 ? library->handle : NULL;
    pthread_mutex_unlock(&open_lock);
    void *symbol = handle != NULL ? dlsym(handle, name) : NULL;
    if (symbol == NULL) errno = ELIBACC;
    return symbol;
}
