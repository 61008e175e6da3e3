#include "lazy_library.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>

static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;

void *nfctap_lazy_symbol(nfctap_lazy_library *library, const char *name) {
    pthread_mutex_lock(&open_lock);
    if (library->state == 0) {
        library->handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
        library->state = library->handle != NULL ? 1 : -1;
    }
    void *handle = library->state == 1 ? library->handle : NULL;
    pthread_mutex_unlock(&open_lock);
    void *symbol = handle != NULL ? dlsym(handle, name) : NULL;
    if (symbol == NULL) errno = ELIBACC;
    return symbol;
}
