// The PC/SC wrapper (issue 3) lives here: every pcsc-lite call in this module.
import CPCSCLite
