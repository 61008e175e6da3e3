import NFCTags

/// ISO 15693 frames straight to a virtual tag through a fault plan (what a reader with a raw path
/// gives): one frame per exchange, no answer = `.tagLost`. For tests, the benchmark and checking a
/// virtual tag's memory as the tag logic reads it.
public final class VirtualISO15693Link: ISO15693Link {
    public let tag: VirtualISO15693Tag
    public let plan: FaultPlan
    public var uid: [UInt8] { tag.uid }
    public var passesAnyCommand: Bool { true }

    public init(_ tag: VirtualISO15693Tag, plan: FaultPlan = FaultPlan()) {
        self.tag = tag
        self.plan = plan
    }

    public func transceive(_ frame: [UInt8]) throws(TagError) -> [UInt8] {
        guard let reply = plan.exchange(frame, answer: { tag.respond(to: $0) }) else { throw TagError.tagLost }
        return reply
    }
}
