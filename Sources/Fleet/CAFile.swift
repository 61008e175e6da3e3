import Foundation
import SystemPackage

/// The CA file of an mqtts URL (`--mqtt-ca`, the kiosk's `caFile`), checked at start so that a
/// missing or garbage file is refused naming it, instead of a TLS error repeating for ever.
public enum CAFile {
    /// Largest CA bundle read (the system bundle is about 200 KiB).
    static let maxBytes = 4 << 20

    /// Checks `path` is a regular file (no symbolic link needed: the path is opened as given, but
    /// FIFOs and devices are refused) holding at least one PEM certificate whose body is base64 of
    /// a DER SEQUENCE.
    /// - Throws: `FleetError.badCAFile` naming the file and what is wrong.
    public static func validate(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw FleetError.badCAFile(path: path, reason: "cannot open it: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            throw FleetError.badCAFile(path: path, reason: "\(SafeFile.kind(st.st_mode)), not a PEM file")
        }
        guard st.st_size <= maxBytes else { throw FleetError.badCAFile(path: path, reason: "larger than 4 MiB: not a CA bundle") }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        let count = (try? bytes.withUnsafeMutableBytes { try FileDescriptor(rawValue: fd).read(fromAbsoluteOffset: 0, into: $0) }) ?? 0
        let text = String(decoding: bytes[..<count], as: UTF8.self)
        guard certificates(in: text) > 0 else {
            throw FleetError.badCAFile(path: path, reason: "no PEM certificate in it (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----)")
        }
    }

    /// How many well-formed PEM certificate blocks `text` holds.
    static func certificates(in text: String) -> Int {
        var found = 0
        var rest = Substring(text)
        while let begin = rest.range(of: "-----BEGIN CERTIFICATE-----") {
            guard let end = rest[begin.upperBound...].range(of: "-----END CERTIFICATE-----") else { break }
            let body = rest[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
            if let der = Data(base64Encoded: String(body)), der.count > 16, der.first == 0x30 { found += 1 }
            rest = rest[end.upperBound...]
        }
        return found
    }
}
