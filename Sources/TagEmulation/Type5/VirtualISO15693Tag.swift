import NFCTags
import Synchronization

/// A byte-accurate ISO 15693 tag (docs/tags-and-readers.md §7.11): takes request frames without
/// CRC (`flags cmd [UID LSB first] params`) and answers `flags data`, or `01 code` on an error.
///
/// Implements Inventory, Stay Quiet / Select / Reset to Ready (the ready–selected–quiet states),
/// Read/Write Single and Multiple Blocks, Lock Block (permanent), Write/Lock AFI and DSFID, Get
/// System Info, Get Multiple Block Security Status and, where the chip has them, the extended
/// commands. Error codes: `01` not supported, `02` not recognised, `03` option not supported,
/// `10` block not available, `11` already locked, `12` locked block.
public final class VirtualISO15693Tag: VirtualTag, Sendable {
    public let model: ISO15693ChipModel
    /// UID, MSB first (`E0 mfr …`).
    public let uid: [UInt8]
    public var atqa: [UInt8] { [] }
    public var sak: UInt8 { 0 }
    public var ats: [UInt8]? { nil }

    enum Mode { case ready, selected, quiet }

    struct State {
        var memory: [UInt8]
        var locked: [Bool]
        var dsfid: UInt8
        var afi: UInt8
        var dsfidLocked = false
        var afiLocked = false
        var mode = Mode.ready
        var commands: [UInt8] = []
    }

    let state: Mutex<State>

    /// - Parameters:
    ///   - memory: the whole memory; padded with zeros or cut to the model's size.
    ///   - locked: blocks locked already.
    public init(model: ISO15693ChipModel, uid: [UInt8], memory: [UInt8] = [], locked: Set<Int> = [],
                dsfid: UInt8 = 0, afi: UInt8 = 0) {
        self.model = model
        self.uid = uid
        var bytes = Array(memory.prefix(model.memorySize))
        bytes += [UInt8](repeating: 0, count: model.memorySize - bytes.count)
        state = Mutex(State(memory: bytes, locked: (0 ..< model.blockCount).map(locked.contains), dsfid: dsfid, afi: afi))
    }

    public var memory: [UInt8] { state.withLock { $0.memory } }
    public var lockedBlocks: Set<Int> { state.withLock { s in Set(s.locked.indices.filter { s.locked[$0] }) } }
    /// The command codes received, in order.
    public var commandLog: [UInt8] { state.withLock { $0.commands } }

    /// Get System Info's answer data (no flags byte).
    public var systemInfo: ISO15693SystemInfo {
        state.withLock { s in
            ISO15693SystemInfo(uid: uid, dsfid: s.dsfid, afi: s.afi, blockSize: model.blockSize,
                               blockCount: model.blockCount, icReference: model.icReference)
        }
    }

    /// Entering the field: back to the ready state.
    public func activate() {
        state.withLock { $0.mode = .ready }
    }

    public func respond(to frame: [UInt8]) -> [UInt8]? {
        guard let request = try? ISO15693Frame.parse(frame) else { return nil }
        let flags = request.flags
        let inventory = flags & ISO15693RequestFlags.inventory != 0
        return state.withLock { s -> [UInt8]? in
            s.commands.append(request.code)
            if inventory {
                guard request.code == ISO15693Command.inventory.rawValue, s.mode != .quiet else { return nil }
                return [0x00, s.dsfid] + uid.reversed()
            }
            if let addressed = request.uid, addressed != uid { return nil }
            if flags & ISO15693RequestFlags.select != 0, s.mode != .selected { return nil }
            if request.uid == nil, flags & ISO15693RequestFlags.select == 0, s.mode == .quiet { return nil }
            return answer(ISO15693Command(rawValue: request.code), code: request.code, flags: flags,
                          addressed: request.uid != nil, parameters: request.parameters, state: &s)
        }
    }

    static func error(_ code: UInt8) -> [UInt8] { [0x01, code] }
    static let ok: [UInt8] = [0x00]

    private func answer(_ command: ISO15693Command?, code: UInt8, flags: UInt8, addressed: Bool,
                        parameters p: [UInt8], state s: inout State) -> [UInt8]? {
        let option = flags & ISO15693RequestFlags.option != 0
        let size = model.blockSize
        guard let command else { return Self.error(0x01) }
        switch command {
        case .inventory: return nil
        case .stayQuiet:
            guard addressed else { return nil }
            s.mode = .quiet
            return nil // Stay Quiet has no answer
        case .select:
            guard addressed else { return Self.error(0x02) }
            s.mode = .selected
            return Self.ok
        case .resetToReady:
            s.mode = .ready
            return Self.ok
        case .readSingleBlock, .extendedReadSingleBlock:
            let extended = command == .extendedReadSingleBlock
            if extended && !model.supportsExtendedCommands { return Self.error(0x01) }
            guard p.count == (extended ? 2 : 1) else { return Self.error(0x02) }
            let block = extended ? Int(p[0]) | Int(p[1]) << 8 : Int(p[0])
            guard block < model.blockCount else { return Self.error(0x10) }
            return Self.ok + (option ? [s.locked[block] ? 0x01 : 0x00] : []) + s.memory[block * size ..< (block + 1) * size]
        case .readMultipleBlocks, .extendedReadMultipleBlocks:
            let extended = command == .extendedReadMultipleBlocks
            if (extended && !model.supportsExtendedCommands) || model.maxReadMultipleBlocks == 0 { return Self.error(0x01) }
            guard p.count == (extended ? 4 : 2) else { return Self.error(0x02) }
            let first = extended ? Int(p[0]) | Int(p[1]) << 8 : Int(p[0])
            let count = (extended ? Int(p[2]) | Int(p[3]) << 8 : Int(p[1])) + 1
            guard first + count <= model.blockCount, count <= model.maxReadMultipleBlocks else { return Self.error(0x10) }
            var out = Self.ok
            for block in first ..< first + count {
                if option { out.append(s.locked[block] ? 0x01 : 0x00) }
                out += s.memory[block * size ..< (block + 1) * size]
            }
            return out
        case .writeSingleBlock, .extendedWriteSingleBlock, .writeMultipleBlocks:
            return write(command, option: option, parameters: p, state: &s)
        case .lockBlock, .extendedLockBlock:
            let extended = command == .extendedLockBlock
            if extended && !model.supportsExtendedCommands { return Self.error(0x01) }
            if option && model.refusesOptionOnWrite { return Self.error(0x03) }
            guard p.count == (extended ? 2 : 1) else { return Self.error(0x02) }
            let block = extended ? Int(p[0]) | Int(p[1]) << 8 : Int(p[0])
            guard block < model.blockCount else { return Self.error(0x10) }
            guard !s.locked[block] else { return Self.error(0x11) }
            s.locked[block] = true
            return model.writeAnswersOnlyWithOption && !option ? nil : Self.ok
        case .writeAFI, .writeDSFID:
            guard p.count == 1 else { return Self.error(0x02) }
            if command == .writeAFI {
                guard !s.afiLocked else { return Self.error(0x12) }
                s.afi = p[0]
            } else {
                guard !s.dsfidLocked else { return Self.error(0x12) }
                s.dsfid = p[0]
            }
            return Self.ok
        case .lockAFI, .lockDSFID:
            if command == .lockAFI {
                guard !s.afiLocked else { return Self.error(0x11) }
                s.afiLocked = true
            } else {
                guard !s.dsfidLocked else { return Self.error(0x11) }
                s.dsfidLocked = true
            }
            return Self.ok
        case .getSystemInfo:
            let info = ISO15693SystemInfo(uid: uid, dsfid: s.dsfid, afi: s.afi, blockSize: size,
                                          blockCount: model.blockCount, icReference: model.icReference)
            return Self.ok + info.responseData
        case .fastReadMultipleBlocks, .extendedFastReadMultipleBlocks, .authenticate, .keyUpdate, .challenge, .readBuffer:
            // None of the three chips implements these ISO/IEC 15693-3:2019 commands (their
            // command lists, docs/tags-and-readers.md §7.12): "command not supported".
            return Self.error(0x01)
        case .getMultipleBlockSecurityStatus:
            guard p.count == 2 else { return Self.error(0x02) }
            let first = Int(p[0]), count = Int(p[1]) + 1
            guard first + count <= model.blockCount else { return Self.error(0x10) }
            return Self.ok + (first ..< first + count).map { s.locked[$0] ? 0x01 : 0x00 }
        }
    }

    private func write(_ command: ISO15693Command, option: Bool, parameters p: [UInt8], state s: inout State) -> [UInt8]? {
        let size = model.blockSize
        if command == .extendedWriteSingleBlock && !model.supportsExtendedCommands { return Self.error(0x01) }
        if option && model.refusesOptionOnWrite { return Self.error(0x03) }
        let first: Int, count: Int, data: [UInt8]
        switch command {
        case .extendedWriteSingleBlock:
            guard p.count >= 2 else { return Self.error(0x02) }
            (first, count, data) = (Int(p[0]) | Int(p[1]) << 8, 1, Array(p[2...]))
        case .writeMultipleBlocks:
            guard p.count >= 2 else { return Self.error(0x02) }
            (first, count, data) = (Int(p[0]), Int(p[1]) + 1, Array(p[2...]))
        default:
            guard p.count >= 1 else { return Self.error(0x02) }
            (first, count, data) = (Int(p[0]), 1, Array(p[1...]))
        }
        guard data.count == count * size else { return Self.error(0x02) }
        guard first + count <= model.blockCount else { return Self.error(0x10) }
        guard !(first ..< first + count).contains(where: { s.locked[$0] }) else { return Self.error(0x12) }
        s.memory.replaceSubrange(first * size ..< (first + count) * size, with: data)
        return model.writeAnswersOnlyWithOption && !option ? nil : Self.ok
    }
}
