import Foundation

/// libnfc devices named in `LIBNFC_DEVICE`, /etc/nfc/libnfc.conf and /etc/nfc/devices.d/*.conf,
/// and whether the serial port each names exists and can be opened.
package struct LibNFCConfigCheck {
    package init() {}

    /// `device.connstring = "pn532_uart:/dev/ttyUSB0"` lines, in file order.
    package static func connstrings(inConfig text: String) -> [String] {
        text.split(separator: "\n").compactMap { raw in
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.hasPrefix("#"), let eq = line.firstIndex(of: "=") else { return nil }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            guard key == "device.connstring" else { return nil }
            var value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return value.isEmpty ? nil : value
        }
    }

    package func run(_ root: SystemRoot, environment: [String: String]) -> [DoctorFinding] {
        var sources: [(String, String)] = []
        if let env = environment["LIBNFC_DEVICE"], !env.isEmpty { sources.append(("LIBNFC_DEVICE", env)) }
        for c in Self.connstrings(inConfig: root.read("/etc/nfc/libnfc.conf") ?? "") {
            sources.append(("/etc/nfc/libnfc.conf", c))
        }
        for file in root.list("/etc/nfc/devices.d") where file.hasSuffix(".conf") {
            for c in Self.connstrings(inConfig: root.read("/etc/nfc/devices.d/\(file)") ?? "") {
                sources.append(("/etc/nfc/devices.d/\(file)", c))
            }
        }
        if sources.isEmpty {
            return [DoctorFinding(check: "libnfc-config", status: .info,
                                  summary: "no libnfc device configured (fine for PC/SC readers; PN532 boards need one)",
                                  fix: "echo 'device.connstring = \"pn532_uart:/dev/ttyUSB0\"' | " + DoctorAdvice.asRoot("tee -a /etc/nfc/libnfc.conf"))]
        }
        return sources.map { source, connstring in
            let parts = connstring.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[1].hasPrefix("/dev/") else {
                return DoctorFinding(check: "libnfc-config", status: .ok,
                                     summary: "libnfc device \(connstring) (from \(source))", fix: nil)
            }
            let port = parts[1]
            if !root.exists(port) {
                return DoctorFinding(check: "libnfc-config", status: .failure,
                                     summary: "libnfc device \(connstring) (from \(source)): \(port) does not exist",
                                     fix: "plug the reader in, or correct device.connstring in \(source)")
            }
            if !root.isReadWritable(port) {
                return DoctorFinding(check: "libnfc-config", status: .failure,
                                     summary: "libnfc device \(connstring) (from \(source)): \(port) is not accessible to this user",
                                     fix: DoctorAdvice.asRoot("usermod -aG dialout $USER") + " (then log in again)")
            }
            return DoctorFinding(check: "libnfc-config", status: .ok,
                                 summary: "libnfc device \(connstring) (from \(source)) is accessible", fix: nil)
        }
    }
}
