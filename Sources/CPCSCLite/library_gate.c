#include "library_gate.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

struct nfctap_library_gate {
    atomic_long inside;
    atomic_int closed;
};

static nfctap_library_gate pcsclite_gate;

nfctap_library_gate *nfctap_pcsclite_gate(void) { return &pcsclite_gate; }

// Counted before the check, and closing sets the flag before it counts (both sequentially
// consistent): a call either sees the gate closed or is counted by the close.
int nfctap_gate_enter(nfctap_library_gate *gate) {
    atomic_fetch_add(&gate->inside, 1);
    if (atomic_load(&gate->closed)) {
        atomic_fetch_sub(&gate->inside, 1);
        return 0;
    }
    return 1;
}

void nfctap_gate_leave(nfctap_library_gate *gate) { atomic_fetch_sub(&gate->inside, 1); }

int nfctap_gate_close(nfctap_library_gate *gate, unsigned wait_microseconds) {
    atomic_store(&gate->closed, 1);
    const struct timespec step = {0, 200 * 1000};
    for (unsigned waited = 0; atomic_load(&gate->inside) > 0; waited += 200) {
        if (waited >= wait_microseconds) return 0;
        nanosleep(&step, NULL);
    }
    return 1;
}

nfctap_library_gate *nfctap_gate_new(void) { return calloc(1, sizeof(nfctap_library_gate)); }
void nfctap_gate_free(nfctap_library_gate *gate) { free(gate); }

// A call still inside after 100 ms is stuck in an exchange (a card that stopped answering): it
// sits in a system call, and waiting longer would only delay the exit.
__attribute__((destructor)) static void close_at_exit(void) { nfctap_gate_close(&pcsclite_gate, 100 * 1000); }
