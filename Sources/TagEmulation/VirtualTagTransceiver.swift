import NFCTags

/// An in-process ISO 7816 channel straight to a `VirtualTag` (what a PC/SC or libnfc reader does
/// for an ISO-DEP card), through a `FaultPlan`. No answer → `TagError.tagLost`.
public final class VirtualTagTransceiver: Transceiver {
    public let tag: VirtualTag
    public let plan: FaultPlan

    public init(tag: VirtualTag, plan: FaultPlan = FaultPlan()) {
        self.tag = tag
        self.plan = plan
    }

    public func transceive(_ command: [UInt8]) throws(TagError) -> [UInt8] {
        guard let reply = plan.exchange(command, answer: { tag.respond(to: $0) }) else {
            throw TagError.tagLost
        }
        return reply
    }
}
