import NFCTags

// Command handling of VirtualType4Tag; runs under its lock, on its card state.
extension VirtualType4Tag.Card {
    typealias Version = VirtualType4Tag.Version

    static func sw(_ sw1: UInt8, _ sw2: UInt8, _ data: [UInt8] = []) -> ResponseAPDU {
        ResponseAPDU(data: data, sw1: sw1, sw2: sw2)
    }
    static let ok = sw(0x90, 0x00)
    static let wrongLength = sw(0x67, 0x00)
    static let notFound = sw(0x6A, 0x82)
    static let wrongP1P2 = sw(0x6A, 0x86)
    static let wrongData = sw(0x6A, 0x80)
    static let securityNotSatisfied = sw(0x69, 0x82)
    static let noCurrentFile = sw(0x69, 0x86)
    static let offsetOutOfRange = sw(0x6B, 0x00)
    static let insNotSupported = sw(0x6D, 0x00)
    static let claNotSupported = sw(0x6E, 0x00)

    mutating func handle(_ frame: [UInt8]) -> ResponseAPDU {
        guard frame.count >= 4 else { return Self.wrongLength }
        guard frame[0] == 0x00 else { return Self.claNotSupported }
        guard let apdu = try? CommandAPDU(bytes: frame) else { return Self.wrongLength }
        switch apdu.ins {
        case 0xA4: return select(apdu)
        case 0xB0: return readBinary(apdu)
        case 0xD6: return updateBinary(apdu)
        case 0xB1 where version == .v3: return readBinaryODO(apdu)
        case 0xD7 where version == .v3: return updateBinaryODO(apdu)
        default: return Self.insNotSupported
        }
    }

    mutating func select(_ apdu: CommandAPDU) -> ResponseAPDU {
        switch apdu.p1 {
        case 0x04:
            // Select by DF name (AID): P2 = 00, first or only occurrence.
            guard apdu.p2 == 0x00 else { return Self.wrongP1P2 }
            guard apdu.data == version.applicationID else {
                applicationSelected = false
                selectedFile = .none
                return Self.notFound
            }
            applicationSelected = true
            selectedFile = .none
            return Self.ok
        case 0x00:
            // Select EF by file ID: v2/v3 want "no response data" (0C), legacy tags 00.
            guard apdu.p2 == (version == .v1 ? 0x00 : 0x0C) else { return Self.wrongP1P2 }
            guard apdu.data.count == 2 else { return Self.wrongLength }
            guard applicationSelected else { return Self.notFound }
            if apdu.data == Type4.ccFileID {
                selectedFile = .cc
            } else if apdu.data == ndefFileID {
                selectedFile = .ndef
            } else {
                selectedFile = .none
                return Self.notFound
            }
            return Self.ok
        default:
            return Self.wrongP1P2
        }
    }

    /// Access bytes as the CC file holds them now (offsets 13/14, or 15/16 for v3.0).
    func accessGranted(write: Bool) -> Bool {
        let index = (version == .v3 ? 15 : 13) + (write ? 1 : 0)
        guard index < ccFile.count else { return false }
        return Type4AccessCondition(byte: ccFile[index]).isGranted
    }

    /// The selected file's bytes, or the status word that forbids the access.
    enum FileAccess {
        case granted([UInt8])
        case refused(ResponseAPDU)
    }

    func currentFile(write: Bool) -> FileAccess {
        switch selectedFile {
        case .none: return .refused(Self.noCurrentFile)
        case .cc:
            return write && !ccFileWritable ? .refused(Self.securityNotSatisfied) : .granted(ccFile)
        case .ndef:
            return accessGranted(write: write) ? .granted(ndefFile) : .refused(Self.securityNotSatisfied)
        }
    }

    mutating func store(_ file: [UInt8]) {
        switch selectedFile {
        case .cc: ccFile = file
        case .ndef: ndefFile = file
        case .none: break
        }
    }

    func readBinary(_ apdu: CommandAPDU) -> ResponseAPDU {
        // P1 bit 8 set would be a short EF identifier, which NDEF tags do not offer.
        guard apdu.p1 & 0x80 == 0 else { return Self.wrongP1P2 }
        guard let le = apdu.le, apdu.data.isEmpty else { return Self.wrongLength }
        return read(offset: Int(apdu.p1) << 8 | Int(apdu.p2), le: le, odo: false)
    }

    func readBinaryODO(_ apdu: CommandAPDU) -> ResponseAPDU {
        guard apdu.p1 == 0x00, apdu.p2 == 0x00 else { return Self.wrongP1P2 }
        guard let le = apdu.le else { return Self.wrongLength }
        guard let (offset, rest) = Type4DataObjects.parseOffset(apdu.data[...]), rest.isEmpty else { return Self.wrongData }
        return read(offset: offset, le: le, odo: true)
    }

    func read(offset: Int, le: Int, odo: Bool) -> ResponseAPDU {
        guard le <= maxResponseLength else { return Self.wrongLength }
        let file: [UInt8]
        switch currentFile(write: false) {
        case let .refused(status): return status
        case let .granted(f): file = f
        }
        guard offset < file.count else { return Self.offsetOutOfRange }
        if odo {
            // B1 answers `53 len data` within Le.
            let n = min(Type4DataObjects.largestPayload(fitting: le), file.count - offset)
            guard n > 0 else { return Self.wrongLength }
            return Self.sw(0x90, 0x00, Type4DataObjects.data(Array(file[offset..<(offset + n)])))
        }
        guard offset + le <= file.count else { return Self.offsetOutOfRange }
        return Self.sw(0x90, 0x00, Array(file[offset..<(offset + le)]))
    }

    mutating func updateBinary(_ apdu: CommandAPDU) -> ResponseAPDU {
        guard apdu.p1 & 0x80 == 0 else { return Self.wrongP1P2 }
        guard !apdu.data.isEmpty else { return Self.wrongLength }
        return write(offset: Int(apdu.p1) << 8 | Int(apdu.p2), data: apdu.data, lc: apdu.data.count)
    }

    mutating func updateBinaryODO(_ apdu: CommandAPDU) -> ResponseAPDU {
        guard apdu.p1 == 0x00, apdu.p2 == 0x00 else { return Self.wrongP1P2 }
        guard let (offset, rest) = Type4DataObjects.parseOffset(apdu.data[...]),
              let data = Type4DataObjects.parseData(rest), !data.isEmpty else { return Self.wrongData }
        return write(offset: offset, data: data, lc: apdu.data.count)
    }

    mutating func write(offset: Int, data: [UInt8], lc: Int) -> ResponseAPDU {
        guard lc <= maxCommandLength else { return Self.wrongLength }
        var file: [UInt8]
        switch currentFile(write: true) {
        case let .refused(status): return status
        case let .granted(f): file = f
        }
        guard offset < file.count, offset + data.count <= file.count else { return Self.offsetOutOfRange }
        file.replaceSubrange(offset..<(offset + data.count), with: data)
        store(file)
        return Self.ok
    }
}
