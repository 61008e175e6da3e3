// The libnfc wrapper (issue 5) lives here: every libnfc call in this module.
import CLibNFC
