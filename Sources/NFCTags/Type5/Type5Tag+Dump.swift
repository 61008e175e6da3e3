extension Type5Tag {
    /// Every block (Read Multiple Blocks where the tag has it), the blocks' security status (Get
    /// Multiple Block Security Status `2C`, ISO/IEC 15693-3 §10.4.12, where the reader passes it)
    /// and what Get System Info told. A block the tag refuses to read (a protected page) is nil.
    /// - Throws: the layout's errors (`.invalidTagData` when no memory size can be told) and the
    ///   link's (`.tagLost`).
    public func dumpMemory() throws(TagError) -> ISO15693Memory {
        let (size, count) = try readLayout()
        guard count <= 256 else {
            throw TagError.unsupported("dumping an ISO 15693 tag of \(count) blocks (the dump formats hold 256)")
        }
        var blocks = [[UInt8]?](repeating: nil, count: count)
        do throws(TagError) {
            let all = try readBlocks(0, count: count)
            for i in 0 ..< count { blocks[i] = Array(all[i * size ..< (i + 1) * size]) }
        } catch TagError.iso15693 {
            for i in 0 ..< count { blocks[i] = try? readBlocks(i, count: 1) }
        }
        var security: [UInt8]?
        if link.passesAnyCommand {
            var status: [UInt8] = []
            do throws(TagError) {
                while status.count < count {
                    let n = min(64, count - status.count)
                    let answer = try command(.getMultipleBlockSecurityStatus, parameters: [UInt8(status.count), UInt8(n - 1)])
                    guard answer.count == n else {
                        throw TagError.malformedReply("Get Multiple Block Security Status returned \(answer.count) bytes for \(n) blocks")
                    }
                    status += answer
                }
                security = status
            } catch TagError.iso15693 {
                security = nil // not implemented by this chip
            }
        }
        return ISO15693Memory(dsfid: systemInfo?.dsfid, afi: systemInfo?.afi, icReference: systemInfo?.icReference,
                              blockSize: size, blocks: blocks, security: security)
    }
}
