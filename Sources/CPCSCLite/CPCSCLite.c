// CPCSCLite is a C target only to put include/ (the shim and its forwarding headers) on the search
// path of the modules that import it; it has no code of its own.
#include "shim.h"
