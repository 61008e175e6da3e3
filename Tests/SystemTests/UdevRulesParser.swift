/// A strict parser for the subset of udev rule syntax the project's rules use (udev(7)),
/// so the rules are checked on machines whose `udevadm` has no `verify` verb (systemd < 254).
struct UdevRule: Equatable {
    struct Term: Equatable {
        var key: String
        var attribute: String?
        var op: String
        var value: String
    }
    var line: Int
    var terms: [Term]

    func value(_ key: String, _ attribute: String? = nil, op: String? = nil) -> String? {
        terms.first { $0.key == key && $0.attribute == attribute && (op == nil || $0.op == op) }?.value
    }
}

struct UdevRulesError: Error, Equatable, CustomStringConvertible {
    var line: Int
    var message: String
    var description: String { "line \(line): \(message)" }
}

enum UdevRulesParser {
    static let matchKeys: Set<String> = ["ACTION", "DEVPATH", "KERNEL", "KERNELS", "NAME", "SYMLINK", "SUBSYSTEM",
                                          "SUBSYSTEMS", "DRIVER", "DRIVERS", "ATTR", "ATTRS", "ENV", "TAG", "TAGS",
                                          "TEST", "PROGRAM", "RESULT", "SYSCTL", "CONST"]
    static let assignKeys: Set<String> = ["NAME", "SYMLINK", "OWNER", "GROUP", "MODE", "SECLABEL", "ATTR", "SYSCTL",
                                           "ENV", "TAG", "RUN", "LABEL", "GOTO", "IMPORT", "OPTIONS"]
    static let keysWithAttribute: Set<String> = ["ATTR", "ATTRS", "ENV", "TEST", "SYSCTL", "CONST", "RUN", "IMPORT", "SECLABEL"]

    /// Parses the whole file; every GOTO must have a LABEL.
    static func parse(_ text: String) throws -> [UdevRule] {
        var rules: [UdevRule] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            rules.append(UdevRule(line: index + 1, terms: try parseLine(Substring(line), lineNumber: index + 1)))
        }
        let labels = Set(rules.compactMap { $0.value("LABEL") })
        for rule in rules {
            if let target = rule.value("GOTO"), !labels.contains(target) {
                throw UdevRulesError(line: rule.line, message: "GOTO \"\(target)\" has no LABEL")
            }
        }
        return rules
    }

    private static func parseLine(_ line: Substring, lineNumber: Int) throws -> [UdevRule.Term] {
        var terms: [UdevRule.Term] = []
        var rest = line
        func fail(_ m: String) -> UdevRulesError { UdevRulesError(line: lineNumber, message: m) }
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            let key = String(rest.prefix { $0.isUppercase || $0 == "_" })
            guard !key.isEmpty else { throw fail("expected a key at \"\(rest.prefix(12))\"") }
            rest = rest.dropFirst(key.count)
            var attribute: String? = nil
            if rest.first == "{" {
                guard let close = rest.firstIndex(of: "}") else { throw fail("unterminated {attribute}") }
                attribute = String(rest[rest.index(after: rest.startIndex)..<close])
                rest = rest[rest.index(after: close)...]
            }
            let op: String
            if let two = ["==", "!=", "+=", "-=", ":="].first(where: { rest.hasPrefix($0) }) {
                op = two
            } else if rest.hasPrefix("=") {
                op = "="
            } else {
                throw fail("expected an operator after \(key)")
            }
            rest = rest.dropFirst(op.count)
            guard rest.first == "\"" else { throw fail("value of \(key) must be double-quoted") }
            rest = rest.dropFirst()
            guard let endQuote = rest.firstIndex(of: "\"") else { throw fail("unterminated value of \(key)") }
            let value = String(rest[..<endQuote])
            rest = rest[rest.index(after: endQuote)...]

            let isMatch = op == "==" || op == "!="
            guard (isMatch ? matchKeys : assignKeys).contains(key) else {
                throw fail("\(key) cannot be used with \(op)")
            }
            if keysWithAttribute.contains(key) != (attribute != nil), !(key == "RUN" || key == "IMPORT") {
                throw fail(attribute == nil ? "\(key) needs {attribute}" : "\(key) takes no {attribute}")
            }
            terms.append(.init(key: key, attribute: attribute, op: op, value: value))
            rest = rest.drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty { break }
            guard rest.first == "," else { throw fail("expected ',' between terms") }
            rest = rest.dropFirst()
        }
        return terms
    }
}

import Foundation
