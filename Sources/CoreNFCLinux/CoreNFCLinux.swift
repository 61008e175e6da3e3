// The Core NFC-compatible API. `import CoreNFCLinux` stands for `import CoreNFC`: like Core NFC it
// makes Foundation visible (Data, URL, NSObject, DispatchQueue, LocalizedError…). Only Apple's
// names are added to that namespace; the NDEF codec (its own TNF enum, `[UInt8](hex:)`, …) stays
// in the `NDEF` module, imported separately by code that wants it.
//
// Same names and semantics as Apple's Core NFC (docs/corenfc.md; the compatibility table is
// docs/corenfc-compatibility.md); what Linux adds or does differently:
// - `NFCSessionConfiguration` (reader filter, time limit or none, kiosk hot-plug, batch window,
//   ISO 7816 AIDs to select, where alert messages go) and `NFCReaderEnvironment` (backends,
//   tag logic, clock) are passed to the `…configuration:environment:` initializers; Apple's
//   initializers use the defaults and `NFCReaderEnvironment.shared`.
// - `session.events` is an AsyncSequence of `NFCSessionEvent`; `NFCNDEFReaderSession.readOnce()`.
// - `invalidate(reason:)` for Ctrl-C / SIGTERM (call it from a DispatchSourceSignal handler, not
//   from a raw signal handler); `schedule(after:_:)` for delays on the session clock.
// - Optional delegate methods are protocol requirements with default implementations; see
//   `NFCNDEFReaderSessionDelegate` for how read-write mode is detected without the ObjC runtime.
@_exported import Foundation
@_exported import Dispatch
