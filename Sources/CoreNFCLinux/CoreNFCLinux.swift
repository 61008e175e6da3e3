// The Core NFC-compatible API. Re-exports the NDEF types so one import is enough.
@_exported import NDEF
