import Foundation
#if canImport(Glibc)
import Glibc
import SystemPackage
#endif

/// A pseudo-terminal pair in raw mode: the emulator keeps the master, clients open `path`
/// (the slave, `/dev/pts/N`). Wraps posix_openpt, grantpt, unlockpt, ptsname_r, tcsetattr.
/// The emulator also holds a slave descriptor so that a client closing the port does not hang
/// up the master (a client may close and reopen the port any number of times).
final class PseudoTerminal: Sendable {
    let master: Int32
    private let slaveKeeper: Int32
    let path: String

    /// - Throws: `PN532EmulatorError.pseudoTerminal` with the failing call and errno.
    init() throws {
        let calls = try PTYCalls.resolve()
        let master = calls.posixOpenpt(O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw PN532EmulatorError.pseudoTerminal("posix_openpt", errno) }
        guard calls.grantpt(master) == 0 else { Glibc.close(master); throw PN532EmulatorError.pseudoTerminal("grantpt", errno) }
        guard calls.unlockpt(master) == 0 else { Glibc.close(master); throw PN532EmulatorError.pseudoTerminal("unlockpt", errno) }
        var name = [CChar](repeating: 0, count: 128)
        guard calls.ptsnameR(master, &name, name.count) == 0 else {
            Glibc.close(master); throw PN532EmulatorError.pseudoTerminal("ptsname_r", errno)
        }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slave = open(path, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { Glibc.close(master); throw PN532EmulatorError.pseudoTerminal("open \(path)", errno) }
        // Raw 8-bit line, no echo, no translation: what a UART to a PN532 looks like.
        var attributes = termios()
        if tcgetattr(slave, &attributes) == 0 {
            cfmakeraw(&attributes)
            cfsetispeed(&attributes, speed_t(B115200))
            cfsetospeed(&attributes, speed_t(B115200))
            tcsetattr(slave, TCSANOW, &attributes)
        }
        self.master = master
        self.slaveKeeper = slave
        self.path = path
    }

    /// Reads what is available (up to `capacity` bytes); empty on EOF/EAGAIN.
    func read(capacity: Int = 1024) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: capacity)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, capacity) }
        return n > 0 ? Array(buffer.prefix(n)) : []
    }

    /// Writes all of `bytes` (retrying partial writes).
    func write(_ bytes: [UInt8]) {
        _ = try? FileDescriptor(rawValue: master).writeAll(bytes)
    }

    func close() {
        Glibc.close(slaveKeeper)
        Glibc.close(master)
    }
}

/// glibc's pseudo-terminal calls. Swift's Glibc module hides them (they need `_XOPEN_SOURCE`),
/// and TagEmulation has no C shim, so they are looked up in the already-loaded libc.
private struct PTYCalls {
    let posixOpenpt: @convention(c) (Int32) -> Int32
    let grantpt: @convention(c) (Int32) -> Int32
    let unlockpt: @convention(c) (Int32) -> Int32
    let ptsnameR: @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

    static func resolve() throws -> PTYCalls {
        func symbol<T>(_ name: String, as type: T.Type) throws -> T {
            // RTLD_DEFAULT (a null handle on glibc): search the process's global symbols.
            guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
                throw PN532EmulatorError.pseudoTerminal("dlsym \(name)", ENOSYS)
            }
            return unsafeBitCast(address, to: type)
        }
        return PTYCalls(
            posixOpenpt: try symbol("posix_openpt", as: (@convention(c) (Int32) -> Int32).self),
            grantpt: try symbol("grantpt", as: (@convention(c) (Int32) -> Int32).self),
            unlockpt: try symbol("unlockpt", as: (@convention(c) (Int32) -> Int32).self),
            ptsnameR: try symbol("ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32).self))
    }
}
