import NDEF
import NFCTags
import TagEmulation
import Testing

/// The fault-injection matrix (issue 8, item 2): every tag model × operation × exchange index ×
/// fault, each cell checked for "a typed error or the right data, never wrong data", tear safety
/// and recovery on the same path. Ring 2 drives the PC/SC path in process; the libnfc path is
/// the same matrix in Tests/SystemTests/FaultMatrixLibNFCTests.swift.
package enum FaultMatrix {
    /// The tag models of the matrix, with the messages each carries before and after a write.
    package enum Model: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case ntag213, ntag215, ntag216, ultralightEV1, type4v2, type4v3

        package var testDescription: String { rawValue }

        package var isType4: Bool { self == .type4v2 || self == .type4v3 }

        /// Sizes chosen to cross each format's length boundaries without making the Identiv
        /// profile (one page per exchange) slow: NTAG215/216 go from a 1-byte to a 3-byte TLV
        /// length, the Type 4 messages need two READ/UPDATE chunks at MLe/MLc 246.
        package var sizes: (old: Int, new: Int) {
            switch self {
            case .ntag213: return (60, 137)
            case .ntag215: return (100, 300)
            case .ntag216: return (280, 120)
            case .ultralightEV1: return (40, 124)
            case .type4v2: return (18, 300)
            case .type4v3: return (300, 40)
            }
        }

        package var oldMessage: [UInt8] { FaultMatrix.message(sizes.old, seed: 1) }
        package var newMessage: [UInt8] { FaultMatrix.message(sizes.new, seed: 2) }

        /// A fresh tag holding `oldMessage`.
        package func makeTag() throws -> VirtualTag {
            switch self {
            case .ntag213: return try VirtualType2Tag(product: .ntag213, uid: uid, ndef: oldMessage)
            case .ntag215: return try VirtualType2Tag(product: .ntag215, uid: uid, ndef: oldMessage)
            case .ntag216: return try VirtualType2Tag(product: .ntag216, uid: uid, ndef: oldMessage)
            case .ultralightEV1: return try VirtualType2Tag(product: .ultralightEV1MF0UL21, uid: uid, ndef: oldMessage)
            case .type4v2: return VirtualType4Tag(version: .v2, ndef: oldMessage, maxSize: 1024)
            case .type4v3: return VirtualType4Tag(version: .v3, ndef: oldMessage, maxSize: 1024)
            }
        }
    }

    package enum Operation: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case read, write, lock
        package var testDescription: String { rawValue }
    }

    /// The faults of one cell. Replies are derived from the uninterrupted run's reply at the same
    /// exchange, so "short" and "long" keep the status word where there is one.
    package enum Fault: String, CaseIterable, Sendable {
        /// The tag leaves the field at this exchange and stays away until re-presented.
        case tagRemoved
        /// This one exchange gets no answer.
        case noReply
        /// One data byte missing (status word kept); a bare status word loses its last byte.
        case shortReply
        /// One data byte too many (status word kept).
        case longReply
        /// Three bytes that are no valid answer to anything.
        case garbageReply
        /// Error status words instead of the answer.
        case status6300, status6A82, status6982

        package var statusWord: (UInt8, UInt8)? {
            switch self {
            case .status6300: return (0x63, 0x00)
            case .status6A82: return (0x6A, 0x82)
            case .status6982: return (0x69, 0x82)
            default: return nil
            }
        }

        /// Installs the fault at exchange `k` of `plan`; `clean` is the answer the uninterrupted
        /// run got there, and `hasStatusWord` says whether answers end with SW1 SW2.
        package func install(at k: Int, on plan: FaultPlan, clean: [UInt8], hasStatusWord: Bool) {
            let sw = hasStatusWord ? 2 : 0
            switch self {
            case .tagRemoved:
                plan.reset(leaveFieldAfter: k)
            case .noReply:
                plan.reset(faults: [k: .noReply])
            case .shortReply:
                let short = clean.count > sw ? Array(clean.dropLast(sw + 1) + clean.suffix(sw)) : Array(clean.dropLast())
                plan.reset(faults: [k: .replace(short)])
            case .longReply:
                plan.reset(faults: [k: .replace(Array(clean.dropLast(sw)) + [0xEE] + clean.suffix(sw))])
            case .garbageReply:
                plan.reset(faults: [k: .replace([0x12, 0x34, 0x56])])
            case .status6300, .status6A82, .status6982:
                let (sw1, sw2) = statusWord ?? (0x6F, 0x00)
                plan.reset(faults: [k: .statusWord(sw1, sw2)])
            }
        }
    }

    package static let uid: [UInt8] = [0x04, 0x5A, 0x2C, 0x91, 0x6E, 0x3F, 0x80]

    /// `n` bytes of a counting pattern; different seeds never agree on the first bytes.
    package static func message(_ n: Int, seed: Int) -> [UInt8] {
        (0 ..< n).map { UInt8(truncatingIfNeeded: $0 * 7 + seed * 13 + 1) }
    }

    /// What one cell found; `failures` are the broken rules (empty: the cell passed).
    package struct CellResult {
        package var outcome: String
        package var failures: [String] = []
    }
}

/// One way of reaching a tag that the matrix drives: fresh operation objects (a new connection
/// each time), the fault plan of the exchanges, and re-presenting the tag.
package protocol FaultMatrixPath {
    var plan: FaultPlan { get }
    /// Whether each answer ends with SW1 SW2 (PC/SC: always; libnfc Type 2: never).
    var answersCarryStatusWord: Bool { get }
    /// A new connection's NDEF operations; `record` gets every answer (clean runs only).
    func operations(record: ((ReplyLog) -> Void)?) throws -> NDEFTagOperations
    /// The tag is taken off and put back (un-mutes it, clears leave-field and faults).
    func represent() throws
}

/// Answers in exchange order, from a clean run.
package final class ReplyLog {
    package var replies: [[UInt8]] = []
    package init() {}
}

/// A transceiver that records each answer before passing it on.
package final class RecordingTransceiver: Transceiver {
    package let inner: Transceiver
    package let log: ReplyLog

    package init(_ inner: Transceiver, log: ReplyLog) {
        self.inner = inner
        self.log = log
    }

    package func transceive(_ command: [UInt8]) throws(TagError) -> [UInt8] {
        let reply = try inner.transceive(command)
        log.replies.append(reply)
        return reply
    }
}

/// The PC/SC path in process: APDUs to an `EmulatedPCSCReader` of a given profile (pseudo-APDUs
/// for Type 2, APDUs passed through for ISO-DEP), exactly what pcscd + vpcd carry.
package final class PCSCMatrixPath: FaultMatrixPath {
    package let reader: EmulatedPCSCReader
    package let tag: VirtualTag

    package init(tag: VirtualTag, profile: PCSCReaderProfile) {
        self.tag = tag
        reader = EmulatedPCSCReader(profile: profile, tag: tag)
    }

    package var plan: FaultPlan { reader.plan }
    package var answersCarryStatusWord: Bool { true }

    package func operations(record: ((ReplyLog) -> Void)?) -> NDEFTagOperations {
        var transceiver: Transceiver = EmulatedPCSCTransceiver(reader: reader)
        if let record {
            let log = ReplyLog()
            record(log)
            transceiver = RecordingTransceiver(transceiver, log: log)
        }
        if tag.ats != nil { return Type4Tag(transceiver: transceiver) }
        return Type2Tag(link: PseudoAPDUType2Link(transceiver: transceiver, profile: reader.profile))
    }

    package func represent() {
        plan.reset()
        reader.tag = tag // re-activates it, as a new tap does
    }
}

extension FaultMatrix {
    /// The cells of one (model, path, operation): runs the operation once cleanly to learn the
    /// exchanges and answers, then every fault at every exchange index on a fresh tag.
    /// - Returns: the number of cells and the failed ones with what went wrong.
    package static func run(_ model: Model, _ operation: Operation,
                    makePath: (VirtualTag) throws -> FaultMatrixPath) throws -> (cells: Int, failed: [String]) {
        // 1. The clean run: the answers at each exchange.
        let cleanPath = try makePath(try model.makeTag())
        var log = ReplyLog()
        let ops = try cleanPath.operations(record: { log = $0 })
        cleanPath.plan.reset()
        try perform(operation, on: ops, model: model)
        let answers = log.replies
        let exchanges = cleanPath.plan.exchangeCount
        guard exchanges == answers.count, exchanges > 0 else {
            return (0, ["clean \(operation) ran \(exchanges) exchanges, recorded \(answers.count) answers"])
        }
        try checkFinalState(after: operation, succeeded: true, path: cleanPath, model: model).map { throw MatrixError($0) }

        // 2. Every fault at every exchange.
        var failed: [String] = []
        var cells = 0
        for k in 0 ..< exchanges {
            for fault in Fault.allCases {
                cells += 1
                let path = try makePath(try model.makeTag())
                let result = cell(model, operation, fault: fault, at: k, clean: answers[k], path: path)
                failed += result.failures.map { "\(model) \(operation) \(fault)@\(k)/\(exchanges) [\(result.outcome)]: \($0)" }
            }
        }
        return (cells, failed)
    }

    package struct MatrixError: Error, CustomStringConvertible {
        package let description: String
        package init(_ d: String) { description = d }
    }

    package static func perform(_ operation: Operation, on ops: NDEFTagOperations, model: Model) throws {
        switch operation {
        case .read:
            let bytes = try ops.readNDEF()
            guard bytes == model.oldMessage else { throw MatrixError("WRONG DATA: read \(bytes.count) bytes, not the message") }
        case .write: try ops.writeNDEF(model.newMessage)
        case .lock: try ops.writeLock()
        }
    }

    /// One cell: the fault, the operation, then re-present the tag and check what it holds
    /// through a new connection on the same path.
    package static func cell(_ model: Model, _ operation: Operation, fault: Fault, at k: Int, clean: [UInt8],
                     path: FaultMatrixPath) -> CellResult {
        var result = CellResult(outcome: "")
        var succeeded = false
        do {
            // Connect first (libnfc selects the tag), then arm the fault for the operation's exchanges.
            let ops = try path.operations(record: nil)
            fault.install(at: k, on: path.plan, clean: clean, hasStatusWord: path.answersCarryStatusWord)
            try perform(operation, on: ops, model: model)
            succeeded = true
            result.outcome = "succeeded"
        } catch let error as MatrixError {
            result.outcome = "wrong data"
            result.failures.append(error.description)
        } catch let error as TagError {
            result.outcome = "\(error)"
            if let rule = expectedErrorRule(fault: fault, model: model, statusWords: path.answersCarryStatusWord), !rule(error) {
                result.failures.append("error \(error) is not what \(fault) must give")
            }
        } catch {
            result.outcome = "untyped \(error)"
            result.failures.append("untyped error \(type(of: error)): \(error)")
        }
        do {
            try path.represent()
        } catch {
            result.failures.append("re-presenting the tag failed: \(error)")
            return result
        }
        if let broken = checkFinalState(after: operation, succeeded: succeeded, path: path, model: model) {
            result.failures.append(broken)
        }
        return result
    }

    /// Which typed errors a fault may give: the tag gone is `tagLost`; an error status word is
    /// reported as that status (or, for `6A 82` on Type 4, as "no NDEF application").
    /// nil: any `TagError` is right (short, long and garbled answers, an unanswered exchange
    /// that the link may recover from or report in its own terms, and "status words" on a path
    /// whose answers have none: native Type 2 frames through libnfc, where 2 bytes are garbage).
    package static func expectedErrorRule(fault: Fault, model: Model, statusWords: Bool) -> ((TagError) -> Bool)? {
        switch fault {
        case .tagRemoved:
            return { $0 == .tagLost }
        case .status6300, .status6A82, .status6982:
            guard statusWords else { return nil }
            guard let (sw1, sw2) = fault.statusWord else { return nil }
            return { error in
                if error == .status(sw1: sw1, sw2: sw2) { return true }
                if case .notNDEFFormatted = error, model.isType4, fault == .status6A82 { return true }
                return false
            }
        default:
            return nil
        }
    }

    /// After the operation (and any tear): a new connection reads the tag, and it holds what it
    /// may. Read: the message. Write: old, empty or new (new if the write reported success).
    /// Lock: the message unchanged; locking again completes and the tag reports read-only.
    /// - Returns: the broken rule, or nil.
    package static func checkFinalState(after operation: Operation, succeeded: Bool, path: FaultMatrixPath,
                                model: Model) -> String? {
        let read: [UInt8]
        do {
            read = try path.operations(record: nil).readNDEF()
        } catch {
            return "the read after re-presenting failed: \(error)"
        }
        let old = model.oldMessage, new = model.newMessage
        switch operation {
        case .read:
            if read != old { return "re-read returned \(read.count) bytes, not the message" }
        case .write:
            if succeeded, read != new { return "write reported success, re-read returned \(describe(read, old, new))" }
            if read != old, read != new, !read.isEmpty { return "torn write left \(describe(read, old, new))" }
        case .lock:
            if read != old { return "lock changed the message: \(describe(read, old, new))" }
            do {
                if !succeeded { try path.operations(record: nil).writeLock() }
                let status = try path.operations(record: nil).queryNDEFStatus().status
                if status != .readOnly { return "after lock the tag reports \(status)" }
                if try path.operations(record: nil).readNDEF() != old { return "locking again changed the message" }
            } catch {
                return "completing the lock failed: \(error)"
            }
        }
        return nil
    }

    package static func describe(_ read: [UInt8], _ old: [UInt8], _ new: [UInt8]) -> String {
        read == old ? "the old message" : read == new ? "the new message" : read.isEmpty ? "an empty message"
            : "\(read.count) bytes that are neither old nor new"
    }
}
