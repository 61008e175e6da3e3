import NFCTags
import Synchronization

/// A byte-accurate FeliCa card answering whole FeliCa frames (`LEN CMD …`, no CRC;
/// docs/tags-and-readers.md §9.2): Polling with wildcard bytes and request codes, then the
/// commands its model lists, addressed by the IDm of one of its systems. A frame with a bad LEN,
/// another IDm or an unsupported command gets no answer, as on a real card. Block errors are
/// status flags: `FF A1`/`FF A2` for illegal counts, `xx A6` an unknown service, `xx A8` a block
/// outside the service, `xx A5` a write the service or the MC block forbids (flag 1 = bit of the
/// failing element).
public final class VirtualFeliCaCard: VirtualTag, Sendable {
    public let model: VirtualFeliCaModel
    public let systems: [VirtualFeliCaSystem]
    private let state: Mutex<State>

    struct State {
        var stores: [[Int: [UInt8]]]
        /// System selected by the last Polling (or addressed by the last IDm).
        var current = 0
        /// Blocks whose reads answer `01 A8` (a hostile card; tests).
        var refusedReads: Set<Int> = []
        /// What every Polling is answered with instead (a hostile card; tests).
        var pollingAnswer: [UInt8]?
    }

    /// - Parameters:
    ///   - stores: block number → 16 bytes, one dictionary per store the services name.
    public init(model: VirtualFeliCaModel, systems: [VirtualFeliCaSystem], stores: [[Int: [UInt8]]]) {
        self.model = model
        self.systems = systems
        self.state = Mutex(State(stores: stores))
    }

    // MARK: VirtualTag

    public var uid: [UInt8] { systems.first?.idm ?? [] }
    public var idm: [UInt8] { uid }
    public var pmm: [UInt8] { model.pmm }
    /// What Polling the wildcard system with request code 01 tells a reader.
    public var identity: FeliCaIdentity { FeliCaIdentity(idm: idm, pmm: pmm, systemCode: systems.first?.code ?? []) }
    /// FeliCa has no ISO 14443A anticollision data.
    public var atqa: [UInt8] { [] }
    public var sak: UInt8 { 0x00 }
    public var ats: [UInt8]? { nil }
    public func activate() { state.withLock { $0.current = 0 } }

    /// Reads of these blocks fail with status flags `01 A8` (a card failing mid-read).
    public func refuseReads(of blocks: Set<Int>) { state.withLock { $0.refusedReads = blocks } }

    /// Every Polling is answered with `bytes` (LEN first) instead of the POL_RES: a short or
    /// garbled answer, as a card at the edge of the field sends.
    public func answerPolling(with bytes: [UInt8]?) { state.withLock { $0.pollingAnswer = bytes } }

    /// One block of one store, nil when absent.
    public func block(_ number: Int, store: Int = 0) -> [UInt8]? {
        state.withLock { $0.stores.indices.contains(store) ? $0.stores[store][number] : nil }
    }

    /// Stores a block directly (no radio exchange).
    public func setBlock(_ number: Int, store: Int = 0, to data: [UInt8]) {
        precondition(data.count == 16)
        state.withLock { $0.stores[store][number] = data }
    }

    public func respond(to frame: [UInt8]) -> [UInt8]? {
        guard frame.count >= 2, Int(frame[0]) == frame.count else { return nil }
        let code = frame[1]
        guard model.commands.contains(code) else { return nil }
        if code == FeliCaCommandCode.polling {
            if let hostile = state.withLock({ $0.pollingAnswer }) { return hostile }
            return polling(Array(frame[2...]))
        }
        guard frame.count >= 10 else { return nil }
        let idm = Array(frame[2..<10])
        guard let system = systems.firstIndex(where: { $0.idm == idm }) else { return nil }
        state.withLock { $0.current = system }
        let parameters = Array(frame[10...])
        let body: [UInt8]?
        switch code {
        case FeliCaCommandCode.requestService: body = requestService(parameters, system: systems[system], flags: false)
        case FeliCaCommandCode.requestServiceV2: body = requestService(parameters, system: systems[system], flags: true)
        case FeliCaCommandCode.requestResponse: body = parameters.isEmpty ? [0x00] : nil
        case FeliCaCommandCode.readWithoutEncryption: body = read(parameters, system: systems[system])
        case FeliCaCommandCode.writeWithoutEncryption: body = write(parameters, system: systems[system])
        case FeliCaCommandCode.requestSystemCode:
            body = parameters.isEmpty ? [UInt8(systems.count)] + systems.flatMap(\.code) : nil
        case FeliCaCommandCode.requestSpecificationVersion:
            // Status flags, format 00, basic version 1.10 (LE), one option: DES 1.00.
            body = parameters == [0x00, 0x00] ? [0x00, 0x00, 0x00, 0x10, 0x01, 0x01, 0x00, 0x01] : nil
        case FeliCaCommandCode.resetMode: body = parameters == [0x00, 0x00] ? [0x00, 0x00] : nil
        default: body = nil
        }
        guard let body else { return nil }
        return Self.frame(code + 1, idm + body)
    }

    static func frame(_ code: UInt8, _ body: [UInt8]) -> [UInt8] { [UInt8(body.count + 2), code] + body }

    // MARK: Commands

    /// `SC SC RC TSN` → IDm PMm [request data] from the first system the code matches
    /// (`FF` bytes match anything).
    private func polling(_ parameters: [UInt8]) -> [UInt8]? {
        guard parameters.count == 4 else { return nil }
        let wanted = Array(parameters[0..<2])
        guard let index = systems.firstIndex(where: { system in
            zip(system.code, wanted).allSatisfy { $1 == 0xFF || $0 == $1 }
        }) else { return nil }
        state.withLock { $0.current = index }
        let requestData: [UInt8]
        switch parameters[2] {
        case 0x01: requestData = systems[index].code
        case 0x02: requestData = [0x00, 0x83]  // 212 and 424 kbps, automatic detection
        default: requestData = []
        }
        return Self.frame(FeliCaCommandCode.polling + 1, systems[index].idm + model.pmm + requestData)
    }

    /// Key versions (`00 00` for a node without key, `FF FF` for none); V2 adds status flags and
    /// the AES encryption identifier.
    private func requestService(_ parameters: [UInt8], system: VirtualFeliCaSystem, flags: Bool) -> [UInt8]? {
        guard let n = parameters.first, (1...32).contains(n), parameters.count == 1 + 2 * Int(n) else {
            return flags ? [0xFF, 0xA1] : nil
        }
        let versions: [UInt8] = (0..<Int(n)).flatMap { i -> [UInt8] in
            let node = UInt16(parameters[1 + 2 * i]) | UInt16(parameters[2 + 2 * i]) << 8
            let known = system.areas.contains(node) || system.services.contains { $0.code == node }
            return known ? [0x00, 0x00] : [0xFF, 0xFF]
        }
        return flags ? [0x00, 0x00, 0x4F, n] + versions : [n] + versions
    }

    /// Parses `nSvc SC… nBlk elements…`; nil when the frame is cut short.
    private func blockRequest(_ p: [UInt8], maxBlocks: Int)
        -> (services: [UInt16], elements: [(serviceIndex: Int, block: Int, mode: UInt8)], rest: [UInt8])?? {
        guard let nSvc = p.first else { return nil }
        guard (1...16).contains(nSvc) else { return .some(nil) }
        let svcEnd = 1 + 2 * Int(nSvc)
        guard p.count > svcEnd else { return nil }
        let services = (0..<Int(nSvc)).map { UInt16(p[1 + 2 * $0]) | UInt16(p[2 + 2 * $0]) << 8 }
        let nBlk = Int(p[svcEnd])
        guard (1...maxBlocks).contains(nBlk) else { return .some(nil) }
        var index = svcEnd + 1
        var elements: [(Int, Int, UInt8)] = []
        for _ in 0..<nBlk {
            guard index < p.count else { return nil }
            let head = p[index]
            if head & 0x80 != 0 {
                guard index + 1 < p.count else { return nil }
                elements.append((Int(head & 0x0F), Int(p[index + 1]), (head >> 4) & 0x07))
                index += 2
            } else {
                guard index + 2 < p.count else { return nil }
                elements.append((Int(head & 0x0F), Int(p[index + 1]) | Int(p[index + 2]) << 8, (head >> 4) & 0x07))
                index += 3
            }
        }
        return (services, elements, Array(p[index...]))
    }

    /// Flag 1 for a failing element: its bit for the first eight, else `FF`.
    private static func elementFlag(_ i: Int) -> UInt8 { i < 8 ? UInt8(1 << i) : 0xFF }

    /// The service an element reaches, or the status flag 2 that refuses it.
    private func resolve(_ element: (serviceIndex: Int, block: Int, mode: UInt8), services: [UInt16],
                         system: VirtualFeliCaSystem) -> Result<VirtualFeliCaService, StatusError> {
        guard element.serviceIndex < services.count else { return .failure(StatusError(0xA3)) }
        guard element.mode == 0 else { return .failure(StatusError(0xA7)) }
        guard let service = system.services.first(where: { $0.code == services[element.serviceIndex] }) else {
            return .failure(StatusError(0xA6))
        }
        guard !service.needsKey else { return .failure(StatusError(0xA5)) }
        return .success(service)
    }

    struct StatusError: Error { let flag2: UInt8; init(_ flag2: UInt8) { self.flag2 = flag2 } }

    private func read(_ parameters: [UInt8], system: VirtualFeliCaSystem) -> [UInt8]? {
        guard let parsed = blockRequest(parameters, maxBlocks: model.maxReadBlocks) else { return nil }
        guard let request = parsed, request.rest.isEmpty else {
            return [0xFF, parameters.first.map { (1...16).contains($0) } == false ? 0xA1 : 0xA2]
        }
        return state.withLock { state -> [UInt8] in
            var data: [UInt8] = []
            for (i, element) in request.elements.enumerated() {
                switch resolve(element, services: request.services, system: system) {
                case let .failure(error): return [Self.elementFlag(i), error.flag2]
                case let .success(service):
                    guard element.block < service.blockCount || model.liteMemoryControl,
                          !state.refusedReads.contains(element.block),
                          let block = state.stores[service.store][element.block],
                          !(model.liteMemoryControl && Self.liteWriteOnly.contains(element.block)) else {
                        return [Self.elementFlag(i), 0xA8]
                    }
                    data += block
                }
            }
            return [0x00, 0x00, UInt8(request.elements.count)] + data
        }
    }

    private func write(_ parameters: [UInt8], system: VirtualFeliCaSystem) -> [UInt8]? {
        guard let parsed = blockRequest(parameters, maxBlocks: model.maxWriteBlocks) else { return nil }
        guard let request = parsed, request.rest.count == 16 * request.elements.count else {
            return [0xFF, parameters.first.map { (1...16).contains($0) } == false ? 0xA1 : 0xA2]
        }
        return state.withLock { state -> [UInt8] in
            var writes: [(store: Int, block: Int)] = []
            for (i, element) in request.elements.enumerated() {
                switch resolve(element, services: request.services, system: system) {
                case let .failure(error): return [Self.elementFlag(i), error.flag2]
                case let .success(service):
                    guard state.stores[service.store][element.block] != nil,
                          element.block < service.blockCount || model.liteMemoryControl else {
                        return [Self.elementFlag(i), 0xA8]
                    }
                    guard service.isWritable, liteAllowsWrite(element.block, state.stores[service.store]) else {
                        return [Self.elementFlag(i), 0xA5]
                    }
                    writes.append((service.store, element.block))
                }
            }
            for (i, target) in writes.enumerated() {
                state.stores[target.store][target.block] = Array(request.rest[(16 * i)..<(16 * i + 16)])
            }
            return [0x00, 0x00]
        }
    }

    // MARK: FeliCa Lite-S memory control (docs/tags-and-readers.md §9.4)

    /// Blocks a Lite-S never reads back (RC, CK).
    static let liteWriteOnly: Set<Int> = [0x80, 0x87]
    /// System blocks MC byte 2 protects.
    static let liteSystemWritable: Set<Int> = [0x0E, 0x80, 0x86, 0x87, 0x88]

    private func liteAllowsWrite(_ block: Int, _ store: [Int: [UInt8]]) -> Bool {
        guard model.liteMemoryControl else { return true }
        let mc = store[Type3Tag.memoryConfigurationBlock] ?? [UInt8](repeating: 0, count: 16)
        if block < 0x0E {
            let permissions = Int(mc[0]) | Int(mc[1]) << 8
            return permissions & (1 << block) != 0
        }
        return Self.liteSystemWritable.contains(block) && mc[2] == 0xFF
    }
}
