import NDEF
import NFCTags
import TagEmulation
import Testing

/// Helpers for the Type 4, APDU and ATR suites (namespaced: other suites share this target).
enum T4 {
    /// Bytes from hex text; an invalid literal is a bug in the test itself.
    static func hex(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
        T2.hex(text, sourceLocation: sourceLocation)
    }

    /// A Type4Tag on an in-process channel to `tag`, and the channel's fault plan.
    static func connect(_ tag: VirtualType4Tag, extendedLength: Bool = false,
                        plan: FaultPlan = FaultPlan()) -> (Type4Tag, FaultPlan) {
        (Type4Tag(transceiver: VirtualTagTransceiver(tag: tag, plan: plan), extendedLength: extendedLength), plan)
    }

    /// A new object on `t4`'s channel: what a new connection to a re-presented tag makes (an
    /// object remembers the CC and the selected file of its own connection).
    static func fresh(_ t4: Type4Tag) -> Type4Tag {
        Type4Tag(transceiver: t4.transceiver, extendedLength: t4.extendedLength)
    }

    static let selectApp = hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00")
    static let selectLegacyApp = hex("00 A4 04 00 07 D2 76 00 00 85 01 00")
    static let selectCC = hex("00 A4 00 0C 02 E1 03")
    static let selectNDEF = hex("00 A4 00 0C 02 E1 04")
    static let selectCCLegacy = hex("00 A4 00 00 02 E1 03")
    static let selectNDEFLegacy = hex("00 A4 00 00 02 E1 04")
    static let readCC = hex("00 B0 00 00 0F")
    static let readCCv3Tail = hex("00 B0 00 0F 02")

    /// The log rendered as hex lines, for readable failure messages.
    static func lines(_ log: [[UInt8]]) -> [String] { log.map { $0.hexString(separator: " ") } }
}

/// Replies from a script, in order; records what was sent. No reply left → `TagError.tagLost`.
final class Type4ScriptedTransceiver: Transceiver {
    var replies: [[UInt8]]
    private(set) var sent: [[UInt8]] = []

    init(_ replies: [[UInt8]]) { self.replies = replies }

    func transceive(_ command: [UInt8]) throws(TagError) -> [UInt8] {
        sent.append(command)
        guard !replies.isEmpty else { throw TagError.tagLost }
        return replies.removeFirst()
    }
}
