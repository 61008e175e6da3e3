
/// Known readers on the USB bus, and whether this user may open their device node
/// (needed for libnfc's direct USB drivers; pcscd runs as root and does not need it).
package struct USBPermissionCheck {
    package init() {}

    package struct Found: Equatable {
        package var reader: KnownReader
        package var sysfsName: String
        package var devnode: String
    }

    package func readers(_ root: SystemRoot) -> [Found] {
        var found: [Found] = []
        for entry in root.list("/sys/bus/usb/devices") {
            let dir = "/sys/bus/usb/devices/\(entry)"
            guard let vendor = hexID(root.read(dir + "/idVendor")),
                  let product = hexID(root.read(dir + "/idProduct")),
                  let reader = KnownReader.find(vendorID: vendor, productID: product),
                  let bus = Int(trimmed(root.read(dir + "/busnum"))),
                  let dev = Int(trimmed(root.read(dir + "/devnum"))),
                  bus >= 0, bus < 1000, dev >= 0, dev < 1000
            else { continue }
            let node = "/dev/bus/usb/" + pad3(bus) + "/" + pad3(dev)
            found.append(Found(reader: reader, sysfsName: entry, devnode: node))
        }
        return found
    }

    package func run(_ root: SystemRoot) -> [DoctorFinding] {
        let found = readers(root)
        if found.isEmpty {
            return [DoctorFinding(check: "usb-readers", status: .info,
                                  summary: "no known USB NFC reader on the USB bus", fix: nil)]
        }
        return found.map { f in
            if root.isReadWritable(f.devnode) {
                return DoctorFinding(check: "usb-permissions", status: .ok,
                                     summary: "\(f.reader.name) at \(f.devnode) is accessible", fix: nil)
            }
            return DoctorFinding(
                check: "usb-permissions", status: .warning,
                summary: "\(f.reader.name) at \(f.devnode) is not accessible to this user (libnfc needs it; pcscd does not)",
                fix: UdevRulesCheck.fix + "; " + DoctorAdvice.asRoot("usermod -aG plugdev $USER") + " (then log in again)")
        }
    }

    private func trimmed(_ s: String?) -> String { (s ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }
    private func hexID(_ s: String?) -> UInt16? { UInt16(trimmed(s), radix: 16) }
    private func pad3(_ n: Int) -> String { String(repeating: "0", count: max(0, 3 - String(n).count)) + String(n) }
}

import Foundation
import ReaderCore
