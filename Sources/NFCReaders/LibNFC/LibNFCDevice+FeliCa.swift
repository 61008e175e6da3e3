import LibNFC

extension LibNFCDevice {
    /// One round of the monitor's polling: an ISO 14443A tag, else a FeliCa card at 212 kbps with
    /// libnfc's default Polling (any system, system code requested; docs/tags-and-readers.md §9.1).
    func selectAnyTarget() throws(LibNFCError) -> LibNFCTarget? {
        if let target = try selectPassiveTarget() { return target }
        return try selectFeliCa()
    }

    /// Selects `target` again the way it was found: anticollision for ISO 14443A, Polling of its
    /// system for FeliCa. nil when nothing (or something else) answered.
    func reselect(_ target: LibNFCTarget) throws(LibNFCError) -> LibNFCTarget? {
        guard let feliCa = target.feliCa else {
            let again = try selectPassiveTarget()
            return again?.uid == target.uid ? again : nil
        }
        let again = try selectFeliCa(payload: Self.feliCaPolling(feliCa.systemCode), kbps: feliCa.kbps)
        guard var again, again.uid == target.uid else { return nil }
        // Polling with request code 01 names the system; keep what was known when it did not.
        if again.feliCa?.systemCode.isEmpty == true { again.feliCa?.systemCode = feliCa.systemCode }
        return again
    }

    /// Whether the selected target still answers. FeliCa: Polling its system again (libnfc's own
    /// check sends Request Response, which FeliCa Lite-S does not implement; docs/tags-and-readers.md §9.1).
    func targetIsPresent(_ target: LibNFCTarget) throws(LibNFCError) -> Bool {
        guard target.feliCa != nil else { return try targetIsPresent() }
        return try reselect(target) != nil
    }

    /// `00 SC SC 01 00`: Polling one system (any when unknown), asking for its system code.
    static func feliCaPolling(_ systemCode: [UInt8]) -> [UInt8] {
        [0x00] + (systemCode.count == 2 ? systemCode : [0xFF, 0xFF]) + [0x01, 0x00]
    }
}
