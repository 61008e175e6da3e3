import Foundation

/// Removes secrets (the broker password, raw and percent-encoded) from any text before it is
/// logged or printed.
public struct Redactor: Sendable {
    private let secrets: [String]

    public init(secrets given: [String?]) {
        var list: [String] = []
        for case let secret? in given where !secret.isEmpty {
            list.append(secret)
            let encoded = secret.utf8.map { b -> String in
                let c = Character(Unicode.Scalar(b))
                return b < 0x80 && (c.isLetter || c.isNumber || "-._~".contains(c)) ? String(c) : "%" + String(b, radix: 16, uppercase: true).leftPadded(2)
            }.joined()
            if encoded != secret { list.append(encoded) }
        }
        // Longest first: a secret that contains another is replaced whole.
        self.secrets = list.sorted { $0.count > $1.count }
    }

    public init(url: PublishURL) { self.init(secrets: [url.password]) }

    public func callAsFunction(_ text: String) -> String {
        var out = text
        for secret in secrets { out = out.replacingAll(secret, with: "***") }
        return out
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let range = rest.range(of: target) {
            out += rest[..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
