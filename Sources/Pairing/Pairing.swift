// Pairing handlers (issue 6): BlueZ over sd-bus, exec hook, JSON.
import ZebraPrinter
