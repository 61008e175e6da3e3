// The gate every pcsc-lite call passes (PCSC's LibraryGate): pcsc-lite's destructor frees its
// list of contexts without its lock (winscard_clnt.c, `destructor`), so a thread inside a call
// then, or entering one afterwards, walks freed memory. The gate of the process is closed by a
// destructor of this module: destructors run after every atexit handler (the monitors are stopped
// and the lanes drained by then) and the program's before those of the libraries it links.
#ifndef NFCTAP_LIBRARY_GATE_H
#define NFCTAP_LIBRARY_GATE_H

typedef struct nfctap_library_gate nfctap_library_gate;

/// The gate of pcsc-lite's calls in this process.
nfctap_library_gate *nfctap_pcsclite_gate(void);

/// 1: go ahead (then `nfctap_gate_leave`); 0: the gate is closed, do not call the library.
int nfctap_gate_enter(nfctap_library_gate *gate);
void nfctap_gate_leave(nfctap_library_gate *gate);

/// Closes the gate, then waits at most `wait_microseconds` for the calls inside to return.
/// Returns 1 when none is left inside.
int nfctap_gate_close(nfctap_library_gate *gate, unsigned wait_microseconds);

/// A gate of its own (tests), open; freed with `nfctap_gate_free`.
nfctap_library_gate *nfctap_gate_new(void);
void nfctap_gate_free(nfctap_library_gate *gate);

#endif
