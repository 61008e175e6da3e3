/// A FeliCa card's answer to Polling (docs/tags-and-readers.md §9.2).
public struct FeliCaPollingResponse: Equatable, Sendable {
    public var idm: [UInt8]
    public var pmm: [UInt8]
    /// The 2 request-data bytes (system code for request code 01, communication performance for
    /// 02); empty when none was asked for or sent.
    public var requestData: [UInt8]

    public init(idm: [UInt8], pmm: [UInt8], requestData: [UInt8] = []) {
        self.idm = idm
        self.pmm = pmm
        self.requestData = requestData
    }

    /// Decodes `LEN 01 IDm PMm [2 bytes]` (a POL_RES, as libnfc's target data and
    /// pass-through readers hand it over).
    /// - Throws: `TagError.malformedReply`.
    public init(frame: [UInt8]) throws(TagError) {
        let body = try FeliCaFrame.response(frame, to: FeliCaCommandCode.polling, idm: nil)
        guard body.count == 16 || body.count == 18 else {
            throw TagError.malformedReply("Polling answer with \(body.count) bytes after its code (16 or 18)")
        }
        self.init(idm: Array(body[0..<8]), pmm: Array(body[8..<16]), requestData: Array(body[16...]))
    }
}

/// FeliCa commands to one card over the `Transceiver` seam, which carries whole FeliCa frames
/// (`LEN CMD …`, docs/tags-and-readers.md §9.2) both ways. Every command is one exchange.
/// Answers are checked (LEN, response code, IDm, counts) and a bad one is a `TagError`.
public final class FeliCaTag {
    public let link: any Transceiver
    /// The card's IDm in the system selected last.
    public private(set) var idm: [UInt8]
    public private(set) var pmm: [UInt8]
    /// The system selected by the last Polling (empty when unknown).
    public private(set) var systemCode: [UInt8]

    public init(link: any Transceiver, idm: [UInt8], pmm: [UInt8], systemCode: [UInt8] = []) {
        self.link = link
        self.idm = idm
        self.pmm = pmm
        self.systemCode = systemCode
    }

    public var product: FeliCaProduct { FeliCaProduct(pmm: pmm) }

    /// One command addressed to the card's IDm; the answer after its IDm.
    func exchange(_ code: UInt8, _ parameters: [UInt8]) throws(TagError) -> [UInt8] {
        let frame = try FeliCaFrame.command(code, idm: idm, parameters)
        return try FeliCaFrame.response(link.transceive(frame), to: code, idm: idm)
    }

    /// Polling (`00`): selects the system `systemCode` (2 bytes; `FF` bytes are wildcards).
    /// On success the card's IDm and PMm, and the selected system, are updated.
    /// - Throws: `TagError.tagLost` / `.timeout` when no card of that system answers.
    @discardableResult
    public func polling(systemCode code: [UInt8], requestCode: UInt8 = 0x00, timeSlot: UInt8 = 0x00) throws(TagError) -> FeliCaPollingResponse {
        guard code.count == 2 else { throw TagError.unsupported("a system code of \(code.count) bytes (2)") }
        let frame = try FeliCaFrame.command(FeliCaCommandCode.polling, idm: nil, code + [requestCode, timeSlot])
        let response = try FeliCaPollingResponse(frame: link.transceive(frame))
        idm = response.idm
        pmm = response.pmm
        if requestCode == 0x01, response.requestData.count == 2 {
            systemCode = response.requestData
        } else if !code.contains(0xFF) {
            systemCode = code
        }
        return response
    }

    /// Request Service (`02`): a key version (2 bytes, little-endian; `FF FF` = no such node)
    /// per node code (1…32 codes of 2 bytes, little-endian).
    public func requestService(nodeCodes: [[UInt8]]) throws(TagError) -> [[UInt8]] {
        try Self.checkCodes(nodeCodes, range: 1...32, what: "node codes")
        let body = try exchange(FeliCaCommandCode.requestService, [UInt8(nodeCodes.count)] + nodeCodes.flatMap { $0 })
        guard let n = body.first, Int(n) == nodeCodes.count, body.count == 1 + 2 * Int(n) else {
            throw TagError.malformedReply("Request Service answer does not carry \(nodeCodes.count) key versions")
        }
        return Self.pairs(body.dropFirst())
    }

    /// Request Response (`04`): the card's mode (0…3).
    public func requestResponse() throws(TagError) -> UInt8 {
        let body = try exchange(FeliCaCommandCode.requestResponse, [])
        guard body.count == 1 else { throw TagError.malformedReply("Request Response answer of \(body.count) bytes after the IDm (1)") }
        return body[0]
    }

    /// Read Without Encryption (`06`): status flags and, when flag 1 is `00`, one 16-byte block per
    /// block-list element. Elements are 2 or 3 bytes (`FeliCaBlockElement`).
    public func readWithoutEncryption(serviceCodes: [[UInt8]], blockList: [[UInt8]]) throws(TagError) -> (FeliCaStatusFlags, [[UInt8]]) {
        try Self.checkCodes(serviceCodes, range: 1...16, what: "service codes")
        try Self.checkBlockList(blockList)
        let parameters = [UInt8(serviceCodes.count)] + serviceCodes.flatMap { $0 } + [UInt8(blockList.count)] + blockList.flatMap { $0 }
        let body = try exchange(FeliCaCommandCode.readWithoutEncryption, parameters)
        let flags = try Self.statusFlags(body, command: "Read Without Encryption")
        guard flags.isSuccess else { return (flags, []) }
        guard body.count >= 3 else { throw TagError.malformedReply("Read Without Encryption answer has no block count") }
        let count = Int(body[2])
        guard count == blockList.count else {
            throw TagError.malformedReply("Read Without Encryption returned \(count) blocks for \(blockList.count) asked")
        }
        guard body.count == 3 + 16 * count else {
            throw TagError.malformedReply("Read Without Encryption answer of \(body.count) bytes for \(count) blocks")
        }
        let blocks = (0..<count).map { Array(body[(3 + 16 * $0)..<(19 + 16 * $0)]) }
        return (flags, blocks)
    }

    /// Write Without Encryption (`08`): one 16-byte block of `blockData` per block-list element.
    public func writeWithoutEncryption(serviceCodes: [[UInt8]], blockList: [[UInt8]], blockData: [[UInt8]]) throws(TagError) -> FeliCaStatusFlags {
        try Self.checkCodes(serviceCodes, range: 1...16, what: "service codes")
        try Self.checkBlockList(blockList)
        guard blockData.count == blockList.count, blockData.allSatisfy({ $0.count == 16 }) else {
            throw TagError.unsupported("block data other than one 16-byte block per block-list element")
        }
        let parameters = [UInt8(serviceCodes.count)] + serviceCodes.flatMap { $0 } + [UInt8(blockList.count)]
            + blockList.flatMap { $0 } + blockData.flatMap { $0 }
        let body = try exchange(FeliCaCommandCode.writeWithoutEncryption, parameters)
        let flags = try Self.statusFlags(body, command: "Write Without Encryption")
        guard body.count == 2 else { throw TagError.malformedReply("Write Without Encryption answer of \(body.count) bytes after the IDm (2)") }
        return flags
    }

    /// Request System Code (`0C`): the card's system codes, 2 bytes each, as the card sends them.
    public func requestSystemCode() throws(TagError) -> [[UInt8]] {
        let body = try exchange(FeliCaCommandCode.requestSystemCode, [])
        guard let n = body.first, body.count == 1 + 2 * Int(n) else {
            throw TagError.malformedReply("Request System Code answer of \(body.count) bytes after the IDm")
        }
        return Self.pairs(body.dropFirst())
    }

    /// Request Service V2 (`32`): status flags, encryption identifier, AES and DES key versions.
    public func requestServiceV2(nodeCodes: [[UInt8]]) throws(TagError)
        -> (flags: FeliCaStatusFlags, encryptionID: UInt8, aes: [[UInt8]], des: [[UInt8]]) {
        try Self.checkCodes(nodeCodes, range: 1...32, what: "node codes")
        let body = try exchange(FeliCaCommandCode.requestServiceV2, [UInt8(nodeCodes.count)] + nodeCodes.flatMap { $0 })
        let flags = try Self.statusFlags(body, command: "Request Service V2")
        guard flags.isSuccess else { return (flags, 0, [], []) }
        guard body.count >= 4 else { throw TagError.malformedReply("Request Service V2 answer has no key versions") }
        let encryptionID = body[2], n = Int(body[3])
        let keys = Self.pairs(body.dropFirst(4))
        guard body.count % 2 == 0, keys.count == n || keys.count == 2 * n else {
            throw TagError.malformedReply("Request Service V2 answer does not carry \(n) key versions")
        }
        return (flags, encryptionID, Array(keys.prefix(n)), keys.count == 2 * n ? Array(keys.suffix(n)) : [])
    }

    /// Request Specification Version (`3C`): status flags, basic version (2 bytes) and the option
    /// versions (2 bytes each, concatenated).
    public func requestSpecificationVersion() throws(TagError) -> (flags: FeliCaStatusFlags, basic: [UInt8], option: [UInt8]) {
        let body = try exchange(FeliCaCommandCode.requestSpecificationVersion, [0x00, 0x00])
        let flags = try Self.statusFlags(body, command: "Request Specification Version")
        guard flags.isSuccess else { return (flags, [], []) }
        // Format version 00, basic version (2), number of options, option versions (2 each).
        guard body.count >= 6, body[2] == 0x00, body.count == 6 + 2 * Int(body[5]) else {
            throw TagError.malformedReply("Request Specification Version answer of \(body.count) bytes after the IDm")
        }
        return (flags, Array(body[3...4]), Array(body[6...]))
    }

    /// Reset Mode (`3E`): the card returns to mode 0.
    public func resetMode() throws(TagError) -> FeliCaStatusFlags {
        let body = try exchange(FeliCaCommandCode.resetMode, [0x00, 0x00])
        return try Self.statusFlags(body, command: "Reset Mode")
    }

    /// Any FeliCa command given without its LEN byte (`CMD …`, as Core NFC's
    /// `sendFeliCaCommand` takes it); the answer without its LEN byte.
    /// - Throws: `TagError.malformedReply` when the answer's LEN disagrees with its length.
    public func send(packet: [UInt8]) throws(TagError) -> [UInt8] {
        guard !packet.isEmpty, packet.count < FeliCaFrame.maxLength else {
            throw TagError.unsupported("a FeliCa packet of \(packet.count) bytes (1…254)")
        }
        let reply = try link.transceive([UInt8(packet.count + 1)] + packet)
        guard let len = reply.first, Int(len) == reply.count, reply.count >= 2 else {
            throw TagError.malformedReply("FeliCa answer whose LEN disagrees with its \(reply.count) bytes")
        }
        return Array(reply.dropFirst())
    }

    // MARK: - Blocks of one service

    /// Reads `blocks` of `service` in one exchange.
    /// - Throws: `TagError.feliCaStatus` when the card refuses.
    public func readBlocks(_ blocks: [Int], service: UInt16) throws(TagError) -> [[UInt8]] {
        let (flags, data) = try readWithoutEncryption(serviceCodes: [FeliCaBlockElement.serviceCodeBytes(service)],
                                                      blockList: blocks.map { FeliCaBlockElement.encode(block: $0) })
        guard flags.isSuccess else { throw TagError.feliCaStatus(flag1: flags.flag1, flag2: flags.flag2) }
        return data
    }

    /// Writes `data` (16 bytes per block) to `blocks` of `service` in one exchange.
    /// - Throws: `TagError.feliCaStatus` when the card refuses.
    public func writeBlocks(_ blocks: [Int], service: UInt16, data: [[UInt8]]) throws(TagError) {
        let flags = try writeWithoutEncryption(serviceCodes: [FeliCaBlockElement.serviceCodeBytes(service)],
                                               blockList: blocks.map { FeliCaBlockElement.encode(block: $0) }, blockData: data)
        guard flags.isSuccess else { throw TagError.feliCaStatus(flag1: flags.flag1, flag2: flags.flag2) }
    }

    // MARK: - Checks

    static func statusFlags(_ body: [UInt8], command: String) throws(TagError) -> FeliCaStatusFlags {
        guard body.count >= 2 else { throw TagError.malformedReply("\(command) answer has no status flags") }
        return FeliCaStatusFlags(body[0], body[1])
    }

    static func checkCodes(_ codes: [[UInt8]], range: ClosedRange<Int>, what: String) throws(TagError) {
        guard range.contains(codes.count), codes.allSatisfy({ $0.count == 2 }) else {
            throw TagError.unsupported("\(codes.count) \(what) (\(range.lowerBound)…\(range.upperBound) of 2 bytes each)")
        }
    }

    static func checkBlockList(_ elements: [[UInt8]]) throws(TagError) {
        guard (1...255).contains(elements.count), elements.allSatisfy({ $0.count == 2 || $0.count == 3 }) else {
            throw TagError.unsupported("a block list of \(elements.count) elements (1…255, of 2 or 3 bytes each)")
        }
    }

    static func pairs(_ bytes: ArraySlice<UInt8>) -> [[UInt8]] {
        let bytes = Array(bytes)
        return stride(from: 0, to: bytes.count - 1, by: 2).map { [bytes[$0], bytes[$0 + 1]] }
    }
}
