// Fuzz target `type2`: `Type2Tag` (CC, TLV walk, NDEF read, write, lock) over a fake `Type2Link`
// that serves a memory image from the input.
// fuzz-modules: NFCTags
// fuzz-max-len: 1100
//
// Input: byte 0 = flags: bit 0 the link passes raw commands (GET_VERSION, FAST_READ); bits 1-2
// the GET_VERSION answer (0 NTAG213, 1 NTAG215, 2 NTAG216, 3 the next 8 input bytes); bit 3
// GET_VERSION is refused (NAK); bits 4-5 the operation (0, 3 read; 1 write; 2 lock); bit 6 an
// unidentified chip has an Ultralight's 16 pages (else the image's own size). A write
// then takes its message (length-prefixed) and a tear byte, a lock a tear byte: the link loses
// the tag at that write (FF: never). The rest is the tag memory from page 0, zero-padded to the
// product's size or to whole pages (at least 4); the UID check bytes BCC0/BCC1 are set.
//
// The fake link behaves like NTAG21x: READ returns 16 bytes rolling over to page 0 at the end of
// memory, READ or FAST_READ of a page past the end is a NAK.
//
// A finding (trap) is: any error other than TagError; a read whose result depends on how the
// link fetches pages (16-byte READ, 4-byte READ, FAST_READ of 60 or 252 bytes); a second read on
// the same object that differs from the first; a message longer than the capacity
// `queryNDEFStatus` reports, or a message on a tag it calls `.notSupported`; a write or lock that
// touches pages 0-2 other than the static lock bytes, or a page other than 4 bytes; a successful
// write that does not read back as the message; a write that, torn at any page, leaves anything
// but the old message, an empty message or the new message; a lock that changes the message or
// leaves the tag writable.
import Glibc
import NDEF
import NFCTags

/// Cases of known findings that are open or cannot be fixed (Fuzz/README.md, "Findings") are
/// skipped so that the fuzzer looks for new ones; `NFCTAP_FUZZ_STRICT=1` checks them again.
let strict = getenv("NFCTAP_FUZZ_STRICT") != nil

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzType2(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let flags = input.byte() ?? 0
    let raw = flags & 0x01 != 0
    var version: [UInt8]?
    switch (flags >> 1) & 0x03 {
    case 0: version = Type2Product.ntag213.versionBytes
    case 1: version = Type2Product.ntag215.versionBytes
    case 2: version = Type2Product.ntag216.versionBytes
    default: version = input.take(8)
    }
    if flags & 0x08 != 0 { version = nil }
    let op = (flags >> 4) & 0x03
    var message: [UInt8] = []
    var tearAt = 0xFF
    if op == 1 { message = input.lengthPrefixed() ?? [] }
    if op == 1 || op == 2 { tearAt = Int(input.byte() ?? 0xFF) }

    var image = input.rest()
    let product = raw ? version.flatMap { Type2Product(version: $0) } : nil
    // Size: the product's when GET_VERSION names it; else a MIFARE Ultralight's 16 pages (bit 6),
    // or whole pages as given (a chip of unknown size).
    if let bytes = product?.totalPages.map({ $0 * 4 }) ?? (flags & 0x40 != 0 ? 64 : nil) {
        image = Array((image + [UInt8](repeating: 0, count: bytes)).prefix(bytes))
    } else {
        image += [UInt8](repeating: 0, count: max(16 - image.count, (4 - image.count % 4) % 4))
        image = Array(image.prefix(1024))
    }
    // Pages 0-2 hold the UID with its check bytes on every real chip (ISO 14443-3):
    // BCC0 = 88 ⊕ UID0 ⊕ UID1 ⊕ UID2, BCC1 = UID3 ⊕ UID4 ⊕ UID5 ⊕ UID6.
    image[3] = 0x88 ^ image[0] ^ image[1] ^ image[2]
    image[8] = image[4] ^ image[5] ^ image[6] ^ image[7]
    let memory = Memory(image)
    let setup = Setup(raw: raw, version: version)

    switch op {
    case 1: checkWrite(memory, setup, message: message, tearAt: tearAt)
    case 2: checkLock(memory, setup, tearAt: tearAt)
    default: checkRead(memory, setup)
    }
    return 0
}

/// The tag's memory, shared by the link objects of one input (a write through one is seen by all).
final class Memory {
    var bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    var pageCount: Int { bytes.count / 4 }
}

struct Setup {
    var raw: Bool
    var version: [UInt8]?
}

/// How a reader fetches pages.
struct Profile {
    var readLength: Int
    var fastReadLimit: Int
    static let all = [Profile(readLength: 16, fastReadLimit: 0), Profile(readLength: 4, fastReadLimit: 0),
                      Profile(readLength: 16, fastReadLimit: 60), Profile(readLength: 16, fastReadLimit: 252)]
}

final class FakeLink: Type2Link {
    let memory: Memory
    let setup: Setup
    let profile: Profile
    /// Index of the write that loses the tag (nil: none); later exchanges fail too.
    let tearAt: Int?
    private(set) var writes: [(page: Int, data: [UInt8])] = []
    private var lost = false

    init(_ memory: Memory, _ setup: Setup, _ profile: Profile = Profile.all[0], tearAt: Int? = nil) {
        self.memory = memory
        self.setup = setup
        self.profile = profile
        self.tearAt = tearAt
    }

    var fastReadLimit: Int { setup.raw ? profile.fastReadLimit : 0 }
    var canSendRawCommands: Bool { setup.raw }

    func read(page: Int) throws(TagError) -> [UInt8] {
        guard !lost else { throw TagError.tagLost }
        guard page >= 0, page < memory.pageCount else { throw TagError.nak(0x0) }
        let n = memory.bytes.count
        return (0 ..< profile.readLength).map { memory.bytes[(page * 4 + $0) % n] }
    }

    func fastRead(from start: Int, to end: Int) throws(TagError) -> [UInt8] {
        guard !lost else { throw TagError.tagLost }
        guard fastReadLimit > 0 else { finding("FAST_READ on a link that cannot pass it") }
        guard start >= 0, start <= end, end < memory.pageCount else { throw TagError.nak(0x0) }
        guard (end - start + 1) * 4 <= fastReadLimit else {
            finding("FAST_READ \(start)-\(end) exceeds the link's \(fastReadLimit) bytes")
        }
        return Array(memory.bytes[(start * 4) ..< ((end + 1) * 4)])
    }

    func write(page: Int, data: [UInt8]) throws(TagError) {
        guard !lost else { throw TagError.tagLost }
        guard data.count == 4 else { finding("WRITE of \(data.count) bytes to page \(page)") }
        if writes.count == tearAt {
            lost = true
            throw TagError.tagLost
        }
        guard page >= 0, page < memory.pageCount else { throw TagError.nak(0x0) }
        writes.append((page, data))
        memory.bytes.replaceSubrange((page * 4) ..< (page * 4 + 4), with: data)
    }

    func getVersion() throws(TagError) -> [UInt8] {
        guard !lost else { throw TagError.tagLost }
        guard setup.raw else { finding("GET_VERSION on a link that cannot send raw commands") }
        guard let version = setup.version else { throw TagError.nak(0x0) }
        return version
    }
}

/// The message on the tag as a fresh object reads it, or the error.
private func freshRead(_ memory: Memory, _ setup: Setup, _ profile: Profile = Profile.all[0]) -> Result<[UInt8], TagError> {
    let tag = Type2Tag(link: FakeLink(memory, setup, profile))
    // readNDEF throws TagError only (typed throws): nothing else can arrive here.
    return Result { () throws(TagError) in try tag.readNDEF() }
}

/// Finding 1 (Fuzz/findings/type2-read-wraps-past-memory), fixed for the chips that exist: when
/// the CC's data area runs past the memory of a chip GET_VERSION does not identify, a 16-byte READ
/// rolls over to page 0. `Type2Tag` now detects it on a 16-page chip (MIFARE Ultralight: page 16
/// reads back as page 0). A chip of another unidentified size cannot be told apart, so the
/// read-profile comparison skips that case (`NFCTAP_FUZZ_STRICT=1` keeps it).
private func dataAreaPastMemory(_ memory: Memory) -> Bool {
    let b = memory.bytes
    return b.count != 64 && b[12] == 0xE1 && 16 + Int(b[14]) * 8 > b.count
}

/// The error `Type2Tag` gives when page 16 reads back as page 0 (finding 1's fix).
private func isRollOverRefusal(_ error: TagError) -> Bool {
    if case let .invalidTagData(why) = error { return why.contains("reads back as page 0") }
    return false
}

private func checkRead(_ memory: Memory, _ setup: Setup) {
    let reference = freshRead(memory, setup)
    for profile in Profile.all.dropFirst() where strict || !dataAreaPastMemory(memory) {
        let other = freshRead(memory, setup, profile)
        switch (reference, other) {
        case let (.success(a), .success(b)) where a == b: break
        case (.failure, .failure): break
        case let (.failure(e), .success) where !strict && isRollOverRefusal(e),
             let (.success, .failure(e)) where !strict && isRollOverRefusal(e):
            // Finding 2 (accepted): the roll-over check refuses a lying CC only when a READ reaches
            // page 16; a reader whose READs stop short of it reads the message that fits. (Each
            // pattern has its own `where`: one clause after both would guard only the second, and
            // a first-read failure followed by a success passed even in strict mode.)
            break
        default:
            finding("READ 16 gives \(describe(reference)), READ \(profile.readLength) / FAST_READ \(profile.fastReadLimit) gives \(describe(other))")
        }
    }
    // The same object twice: the second read comes from the cache and must agree.
    let tag = Type2Tag(link: FakeLink(memory, setup))
    let first = Result { try tag.readNDEF() }
    let second = Result { try tag.readNDEF() }
    if case let .success(a) = first, case let .success(b) = second, a != b {
        finding("second readNDEF on one object gives \(b.hexString), first \(a.hexString)")
    }
    if case .failure(let e) = first, !(e is TagError) { finding("readNDEF threw a non-TagError: \(e)") }
    // Status and capacity agree with what reads.
    let status: (status: NDEFTagStatus, capacity: Int)
    do {
        status = try Type2Tag(link: FakeLink(memory, setup)).queryNDEFStatus()
    } catch {
        if case let .success(m) = reference { finding("queryNDEFStatus fails on a tag that reads a \(m.count)-byte message") }
        return
    }
    guard status.capacity >= 0 else { finding("negative capacity \(status.capacity)") }
    if case let .success(m) = reference {
        guard status.status != .notSupported, m.count <= status.capacity else {
            finding("a \(m.count)-byte message on a tag reported as \(status.status), capacity \(status.capacity)")
        }
    }
}

private func describe(_ r: Result<[UInt8], TagError>) -> String {
    switch r {
    case let .success(m): return "message \(m.hexString(separator: " "))"
    case let .failure(e): return "error \(e)"
    }
}

/// Writes and locks never touch pages 0-1 (UID, serial), nor page 2 except bytes 2-3 (static lock).
private func checkProtectedPages(_ before: [UInt8], _ after: [UInt8], _ what: String) {
    let protected = Array(0 ..< 10)
    for a in protected where a < before.count && before[a] != after[a] {
        finding("\(what) changed byte \(a) (pages 0-2, outside the static lock bytes)")
    }
}

private func checkWrite(_ memory: Memory, _ setup: Setup, message: [UInt8], tearAt: Int) {
    let before = memory.bytes
    let old = freshRead(memory, setup)
    let link = FakeLink(memory, setup, tearAt: tearAt == 0xFF ? nil : tearAt)
    let result = Result { try Type2Tag(link: link).writeNDEF(message) }
    if case .failure(let e) = result, !(e is TagError) { finding("writeNDEF threw a non-TagError: \(e)") }
    checkProtectedPages(before, memory.bytes, "writeNDEF")
    if link.writes.contains(where: { $0.page < 4 }) { finding("writeNDEF wrote the CC or below: pages \(link.writes.map(\.page))") }
    let after = freshRead(memory, setup)
    if case .success = result {
        guard case let .success(m) = after, m == message else {
            finding("write succeeded, the tag reads \(describe(after)) instead of \(message.hexString(separator: " "))")
        }
        return
    }
    // Failed or torn (specs §1): the old message, an empty one, or the new one; never anything else.
    switch after {
    case let .success(m) where m.isEmpty || m == message: return
    case let .success(m):
        if case let .success(o) = old, o == m { return }
        finding("torn write (at write \(link.writes.count)) left \(m.hexString(separator: " ")); old \(describe(old)), new \(message.hexString(separator: " "))")
    case .failure:
        if case .failure = old { return }
        if memory.bytes == before { return }
        finding("torn write (at write \(link.writes.count)) left an unreadable tag: \(describe(after)); old \(describe(old))")
    }
}

private func checkLock(_ memory: Memory, _ setup: Setup, tearAt: Int) {
    let before = memory.bytes
    let old = freshRead(memory, setup)
    let link = FakeLink(memory, setup, tearAt: tearAt == 0xFF ? nil : tearAt)
    let result = Result { try Type2Tag(link: link).writeLock() }
    if case .failure(let e) = result, !(e is TagError) { finding("writeLock threw a non-TagError: \(e)") }
    checkProtectedPages(before, memory.bytes, "writeLock")
    let after = freshRead(memory, setup)
    switch (old, after) {
    case let (.success(a), .success(b)) where a == b: break
    case (.failure, _): break
    default: finding("writeLock changed the message: \(describe(old)) -> \(describe(after))")
    }
    guard case .success = result else { return }
    do {
        let status = try Type2Tag(link: FakeLink(memory, setup)).queryNDEFStatus().status
        guard status != .readWrite else { finding("the tag is still read-write after writeLock") }
    } catch {
        // A locked tag that no longer inspects: only acceptable when it did not before either.
        if case .success = old { finding("queryNDEFStatus fails after writeLock: \(error)") }
    }
}
