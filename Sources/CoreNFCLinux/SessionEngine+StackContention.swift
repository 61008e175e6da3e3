import ReaderCore

extension SessionEngine {
    /// When a libnfc USB device named by connstring did not open while pcscd shows a reader of
    /// that kind: pcscd (libccid) has claimed the USB interface, so libnfc's driver cannot
    /// ("Unable to claim USB interface (Device or resource busy)"; docs/tags-and-readers.md §5).
    /// Names both stacks and the two ways out; nil for anything else.
    static func stackContentionHint(wanted text: String, attached: [ReaderInfo]) -> String? {
        guard text.hasPrefix("libnfc:"), let driver = text.split(separator: ":").dropFirst().first,
              driver.hasSuffix("_usb") else { return nil }
        // acr122_usb drives the ACR122U, which libccid also drives; pn53x_usb readers have no CCID interface.
        let model = driver == "acr122_usb" ? "ACR122" : nil
        let held = attached.filter { info in info.backend == .pcsc && (model.map { info.name.contains($0) } ?? false) }
        guard let name = held.first?.name else { return nil }
        return "libnfc's \(driver) driver could not open \(text.dropFirst("libnfc:".count)): pcscd (PC/SC, libccid) holds the reader "
            + "as \"\(name)\" and libnfc cannot claim its USB interface while it does. Use it through PC/SC (--reader \"\(name)\"), "
            + "or stop pcscd to use libnfc (sudo systemctl stop pcscd.socket pcscd); `nfctap doctor` checks this"
    }
}
