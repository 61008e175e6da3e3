import NFCReaders
import ReaderCore

extension KioskRunner.Dependencies {
    /// Production: PC/SC and libnfc backends as configured, real actions, real time.
    package static var system: Self {
        Self(makeBackends: { configuration in
                 var backends: [any ReaderBackend] = []
                 if configuration.pcsc {
                     // Tags on readers `readers` does not name are left alone (no UID read).
                     let queries = configuration.readers
                     backends.append(queries.isEmpty ? PCSCBackend()
                         : PCSCBackend(identifiesTags: { name in queries.contains { ReaderSelection.matches($0, name: name) } }))
                 }
                 // `readers` entries `libnfc:<connstring>` open that device too.
                 let named = ReaderSelection.libnfcDevices(in: configuration.readers)
                 if let devices = configuration.libnfcDevices {
                     let all = devices + named.filter { !devices.contains($0) }
                     if !all.isEmpty { backends.append(LibNFCBackend(devices: all)) }
                 } else {
                     // LIBNFC_DEVICE / libnfc.conf; never libnfc's USB scan, which fights pcscd (docs/tags-and-readers.md §4).
                     backends.append(LibNFCBackend.configuredDevicesOnly(adding: named))
                 }
                 return backends
             },
             makeAction: { try $0.makeAction() })
    }
}
