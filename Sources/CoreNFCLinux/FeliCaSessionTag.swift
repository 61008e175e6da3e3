import Foundation
import NFCTags
import ReaderCore
import Synchronization

/// A FeliCa card as Core NFC shows it (docs/tags-and-readers.md §9.5). Each command is one FeliCa
/// exchange on the connection's FeliCa channel; status flags come back as numbers, as on iOS.
final class FeliCaSessionTag: NSObject, SessionTag, NFCFeliCaTag {
    let core: SessionTagCore
    private struct Selection {
        var systemCode: [UInt8]
        var idm: [UInt8]
        var pmm: [UInt8]
    }

    private let selection: Mutex<Selection>
    /// The system codes the app declared (`NFCSessionConfiguration.feliCaSystemCodes`).
    let allowedSystemCodes: [[UInt8]]

    init(engine: SessionEngine, presence: TagPresence, generation: Int, allowedSystemCodes: [[UInt8]]) {
        let identity = presence.detected.feliCa
        selection = Mutex(Selection(systemCode: identity?.systemCode ?? [], idm: identity?.idm ?? presence.detected.uid,
                                    pmm: identity?.pmm ?? []))
        self.allowedSystemCodes = allowedSystemCodes
        core = SessionTagCore(engine: engine, presence: presence, generation: generation)
    }

    /// No system codes declared.
    convenience init(_ core: SessionTagCore) {
        self.init(engine: core.engine, presence: core.presence, generation: core.generation, allowedSystemCodes: [])
    }

    init?(coder: NSCoder) { nil }

    override var description: String { tagDescription }

    public var type: __NFCTagType { .feliCa }
    var familyName: String { "NFCFeliCaTag" }
    var asNFCTag: NFCTag? { .feliCa(self) }
    public var currentSystemCode: Data { Data(selection.withLock { $0.systemCode }) }
    public var currentIDm: Data { Data(selection.withLock { $0.idm }) }

    /// Polls the declared system codes in order; the first the card answers becomes the current
    /// system (iOS does this before reporting the tag). When none answers, `currentIDm` is empty.
    func selectSystem(over link: any Transceiver) {
        let current = selection.withLock { $0 }
        for code in allowedSystemCodes {
            let tag = FeliCaTag(link: link, idm: current.idm, pmm: current.pmm, systemCode: current.systemCode)
            guard let response = try? tag.polling(systemCode: code) else { continue }
            selection.withLock { $0 = Selection(systemCode: code, idm: response.idm, pmm: response.pmm) }
            return
        }
        selection.withLock { $0.idm = [] }
    }

    /// Runs `body` with a `FeliCaTag` on the current selection; polling results update it.
    private func run<T: Sendable>(_ body: @escaping @Sendable (FeliCaTag) throws -> T,
                        completion: @escaping @Sendable (Result<T, NFCReaderError>) -> Void) {
        engine.perform(self, kind: .command, { [self] connection -> T in
            guard let link = connection.link.feliCa else {
                throw NFCReaderError(.readerErrorUnsupportedFeature, message: "the reader cannot pass FeliCa commands")
            }
            let current = selection.withLock { $0 }
            guard !current.idm.isEmpty else {
                throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "the card answers none of the declared system codes")
            }
            let tag = FeliCaTag(link: link, idm: current.idm, pmm: current.pmm, systemCode: current.systemCode)
            return try body(tag)
        }, completion: completion)
    }

    static func invalid(_ message: String) -> NFCReaderError { NFCReaderError(.readerErrorInvalidParameter, message: message) }

    static func codes(_ list: [Data], range: ClosedRange<Int>, what: String) throws -> [[UInt8]] {
        guard range.contains(list.count), list.allSatisfy({ $0.count == 2 }) else {
            throw invalid("\(list.count) \(what) (\(range.lowerBound)…\(range.upperBound) of 2 bytes each)")
        }
        return list.map { [UInt8]($0) }
    }

    static func blockList(_ list: [Data]) throws -> [[UInt8]] {
        guard (1...255).contains(list.count), list.allSatisfy({ $0.count == 2 || $0.count == 3 }) else {
            throw invalid("a block list of \(list.count) elements of 2 or 3 bytes")
        }
        return list.map { [UInt8]($0) }
    }

    /// A check that fails before any exchange, answered on the session queue.
    private func fail<T>(_ error: NFCReaderError, _ completion: @escaping @Sendable (Result<T, NFCReaderError>) -> Void) {
        engine.sessionQueue.async { completion(.failure(error)) }
    }

    // MARK: NFCFeliCaTag

    public func polling(systemCode: Data, requestCode: PollingRequestCode, timeSlot: PollingTimeSlot,
                        completionHandler: @escaping @Sendable (Data, Data, (any Error)?) -> Void) {
        let code = [UInt8](systemCode)
        let done: @Sendable (Result<(Data, Data), NFCReaderError>) -> Void = { result in
            switch result {
            case let .success((pmm, data)): completionHandler(pmm, data, nil)
            case let .failure(error): completionHandler(Data(), Data(), error)
            }
        }
        guard code.count == 2, !code.contains(0xFF) else { return fail(Self.invalid("system code \(code.hexString)"), done) }
        guard allowedSystemCodes.contains(code) else {
            return fail(NFCReaderError(.readerErrorSecurityViolation, message: "system code \(code.hexString) is not declared"), done)
        }
        run({ [self] tag in
            let response = try tag.polling(systemCode: code, requestCode: UInt8(requestCode.rawValue), timeSlot: UInt8(timeSlot.rawValue))
            selection.withLock { $0 = Selection(systemCode: code, idm: response.idm, pmm: response.pmm) }
            return (Data(response.pmm), Data(response.requestData))
        }, completion: done)
    }

    public func requestService(nodeCodeList: [Data], completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void) {
        let done: @Sendable (Result<[Data], NFCReaderError>) -> Void = { completionHandler($0.value ?? [], $0.failureValue) }
        do {
            let nodes = try Self.codes(nodeCodeList, range: 1...32, what: "node codes")
            run({ try $0.requestService(nodeCodes: nodes).map { Data($0) } }, completion: done)
        } catch { fail(error as! NFCReaderError, done) }
    }

    public func requestResponse(completionHandler: @escaping @Sendable (Int, (any Error)?) -> Void) {
        run({ Int(try $0.requestResponse()) }, completion: { completionHandler($0.value ?? 0, $0.failureValue) })
    }

    public func readWithoutEncryption(serviceCodeList: [Data], blockList: [Data],
                                      completionHandler: @escaping @Sendable (Int, Int, [Data], (any Error)?) -> Void) {
        let done: @Sendable (Result<(Int, Int, [Data]), NFCReaderError>) -> Void = { result in
            let (f1, f2, blocks) = result.value ?? (0, 0, [])
            completionHandler(f1, f2, blocks, result.failureValue)
        }
        do {
            let services = try Self.codes(serviceCodeList, range: 1...16, what: "service codes")
            let blocks = try Self.blockList(blockList)
            run({ tag in
                let (flags, data) = try tag.readWithoutEncryption(serviceCodes: services, blockList: blocks)
                return (Int(flags.flag1), Int(flags.flag2), data.map { Data($0) })
            }, completion: done)
        } catch { fail(error as! NFCReaderError, done) }
    }

    public func writeWithoutEncryption(serviceCodeList: [Data], blockList: [Data], blockData: [Data],
                                       completionHandler: @escaping @Sendable (Int, Int, (any Error)?) -> Void) {
        let done: @Sendable (Result<(Int, Int), NFCReaderError>) -> Void = { result in
            let (f1, f2) = result.value ?? (0, 0)
            completionHandler(f1, f2, result.failureValue)
        }
        do {
            let services = try Self.codes(serviceCodeList, range: 1...16, what: "service codes")
            let blocks = try Self.blockList(blockList)
            guard blockData.count == blocks.count, blockData.allSatisfy({ $0.count == 16 }) else {
                throw Self.invalid("block data must be one 16-byte block per block-list element")
            }
            let data = blockData.map { [UInt8]($0) }
            run({ tag in
                let flags = try tag.writeWithoutEncryption(serviceCodes: services, blockList: blocks, blockData: data)
                return (Int(flags.flag1), Int(flags.flag2))
            }, completion: done)
        } catch { fail(error as! NFCReaderError, done) }
    }

    public func requestSystemCode(completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void) {
        run({ try $0.requestSystemCode().map { Data($0) } }, completion: { completionHandler($0.value ?? [], $0.failureValue) })
    }

    public func requestServiceV2(nodeCodeList: [Data],
                                 completionHandler: @escaping @Sendable (Int, Int, NFCFeliCaEncryptionId, [Data], [Data], (any Error)?) -> Void) {
        typealias V2 = (Int, Int, NFCFeliCaEncryptionId, [Data], [Data])
        let done: @Sendable (Result<V2, NFCReaderError>) -> Void = { result in
            let v = result.value ?? (0, 0, .AES, [], [])
            completionHandler(v.0, v.1, v.2, v.3, v.4, result.failureValue)
        }
        do {
            let nodes = try Self.codes(nodeCodeList, range: 1...32, what: "node codes")
            run({ tag -> V2 in
                let answer = try tag.requestServiceV2(nodeCodes: nodes)
                return (Int(answer.flags.flag1), Int(answer.flags.flag2), NFCFeliCaEncryptionId(rawValue: Int(answer.encryptionID)) ?? .AES,
                        answer.aes.map { Data($0) }, answer.des.map { Data($0) })
            }, completion: done)
        } catch { fail(error as! NFCReaderError, done) }
    }

    public func requestSpecificationVersion(completionHandler: @escaping @Sendable (Int, Int, Data, Data, (any Error)?) -> Void) {
        run({ tag -> (Int, Int, Data, Data) in
            let answer = try tag.requestSpecificationVersion()
            return (Int(answer.flags.flag1), Int(answer.flags.flag2), Data(answer.basic), Data(answer.option))
        }, completion: { result in
            let v = result.value ?? (0, 0, Data(), Data())
            completionHandler(v.0, v.1, v.2, v.3, result.failureValue)
        })
    }

    public func resetMode(completionHandler: @escaping @Sendable (Int, Int, (any Error)?) -> Void) {
        run({ tag -> (Int, Int) in
            let flags = try tag.resetMode()
            return (Int(flags.flag1), Int(flags.flag2))
        }, completion: { result in
            let v = result.value ?? (0, 0)
            completionHandler(v.0, v.1, result.failureValue)
        })
    }

    /// The packet without its LEN byte (added here, as iOS adds it); a packet addressed to another
    /// IDm than `currentIDm` fails with a security violation, as on iOS.
    public func sendFeliCaCommand(commandPacket: Data, completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void) {
        let packet = [UInt8](commandPacket)
        let done: @Sendable (Result<Data, NFCReaderError>) -> Void = { completionHandler($0.value ?? Data(), $0.failureValue) }
        guard !packet.isEmpty, packet.count <= 254 else {
            return fail(NFCReaderError(.readerTransceiveErrorPacketTooLong, message: "a FeliCa packet of \(packet.count) bytes (1…254)"), done)
        }
        let current = selection.withLock { $0.idm }
        if packet[0] != FeliCaCommandCode.polling, packet.count >= 9, Array(packet[1..<9]) != current {
            return fail(NFCReaderError(.readerErrorSecurityViolation, message: "the packet addresses another IDm than currentIDm"), done)
        }
        run({ Data(try $0.send(packet: packet)) }, completion: done)
    }
}

extension Result {
    var value: Success? {
        if case let .success(value) = self { return value }
        return nil
    }
}
