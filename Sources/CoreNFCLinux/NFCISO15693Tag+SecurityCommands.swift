import Foundation

// Core NFC's ISO/IEC 15693-3:2019 fast reads and cryptographic commands (iOS 14 result handlers,
// iOS 15 async forms), sent through `iso15693(…)` like every other command
// (docs/tags-and-readers.md §7.12):
// - `2D` Fast Read Multiple Blocks / `3D` Extended Fast Read Multiple Blocks: the parameters and
//   answer of `23` / `33`, block range checked the same way (error 3);
// - `35` Authenticate (CSI + message), `36` Key Update (key identifier + message), `3A` Read
//   Buffer: the answer comes back as it is, response flags first — a tag's error flag is the
//   caller's to read, as Apple's header says ("the in-process reply is returned to the caller
//   without any processing");
// - `39` Challenge (CSI + message): the tag computes and stays silent, so no answer in time is
//   success; an error answer is error 102 with the code.
extension NFCISO15693Tag {
    // MARK: iOS 14 result handlers

    @preconcurrency public func fastReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
                                                       resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void) {
        multiBlockRead(flags, ISO15693Calls.fastReadMultipleBlocks, blockRange, extended: false, resultHandler)
    }

    @preconcurrency public func extendedFastReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
                                                               resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void) {
        multiBlockRead(flags, ISO15693Calls.extendedFastReadMultipleBlocks, blockRange, extended: true, resultHandler)
    }

    @preconcurrency public func authenticate(requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data,
                                             resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void) {
        flagsAndData(flags, ISO15693Calls.authenticate, byte: cryptoSuiteIdentifier, named: "crypto suite identifier", message, resultHandler)
    }

    @preconcurrency public func keyUpdate(requestFlags flags: NFCISO15693RequestFlag, keyIdentifier: Int, message: Data,
                                          resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void) {
        flagsAndData(flags, ISO15693Calls.keyUpdate, byte: keyIdentifier, named: "key identifier", message, resultHandler)
    }

    @preconcurrency public func readBuffer(requestFlags flags: NFCISO15693RequestFlag,
                                           resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void) {
        iso15693(flags, ISO15693Calls.readBuffer, keepsFlags: true, parse: ISO15693Calls.flagsAndData, resultHandler)
    }

    @preconcurrency public func challenge(requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data,
                                          completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        do {
            let parameters = try ISO15693Calls.byte(cryptoSuiteIdentifier, named: "crypto suite identifier") + message
            iso15693(flags, ISO15693Calls.challenge, parameters, silenceIsSuccess: true, parse: { _ in () }) {
                completionHandler($0.failureValue)
            }
        } catch {
            DispatchQueue.global().async { completionHandler(error) }
        }
    }

    // MARK: async forms

    public func fastReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [Data] {
        let range = try ISO15693Calls.rangeParameters(blockRange, extended: false)
        return try await iso15693Async(flags, ISO15693Calls.fastReadMultipleBlocks, range.bytes) { try ISO15693Calls.split($0, count: range.count) }
    }

    public func extendedFastReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [Data] {
        let range = try ISO15693Calls.rangeParameters(blockRange, extended: true)
        return try await iso15693Async(flags, ISO15693Calls.extendedFastReadMultipleBlocks, range.bytes) {
            try ISO15693Calls.split($0, count: range.count)
        }
    }

    public func authenticate(requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int,
                             message: Data) async throws -> (NFCISO15693ResponseFlag, Data) {
        let parameters = try ISO15693Calls.byte(cryptoSuiteIdentifier, named: "crypto suite identifier") + message
        return try await iso15693Async(flags, ISO15693Calls.authenticate, parameters, keepsFlags: true, parse: ISO15693Calls.flagsAndData)
    }

    public func keyUpdate(requestFlags flags: NFCISO15693RequestFlag, keyIdentifier: Int,
                          message: Data) async throws -> (NFCISO15693ResponseFlag, Data) {
        let parameters = try ISO15693Calls.byte(keyIdentifier, named: "key identifier") + message
        return try await iso15693Async(flags, ISO15693Calls.keyUpdate, parameters, keepsFlags: true, parse: ISO15693Calls.flagsAndData)
    }

    public func challenge(requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data) async throws {
        try await ISO15693Calls.bridge { challenge(requestFlags: flags, cryptoSuiteIdentifier: cryptoSuiteIdentifier, message: message,
                                                   completionHandler: $0) }
    }

    public func readBuffer(requestFlags flags: NFCISO15693RequestFlag) async throws -> (NFCISO15693ResponseFlag, Data) {
        try await iso15693Async(flags, ISO15693Calls.readBuffer, keepsFlags: true, parse: ISO15693Calls.flagsAndData)
    }

    // MARK: Shape shared by Authenticate and Key Update

    func flagsAndData(_ flags: NFCISO15693RequestFlag, _ code: UInt8, byte value: Int, named name: String, _ message: Data,
                      _ completion: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void) {
        do {
            let parameters = try ISO15693Calls.byte(value, named: name) + message
            iso15693(flags, code, parameters, keepsFlags: true, parse: ISO15693Calls.flagsAndData, completion)
        } catch {
            DispatchQueue.global().async { completion(.failure(error)) }
        }
    }
}

extension ISO15693Calls {
    /// ISO/IEC 15693-3:2019 command codes (NXP's reader library `phalICode` names them alike).
    static let fastReadMultipleBlocks: UInt8 = 0x2D
    static let authenticate: UInt8 = 0x35
    static let keyUpdate: UInt8 = 0x36
    static let challenge: UInt8 = 0x39
    static let readBuffer: UInt8 = 0x3A
    static let extendedFastReadMultipleBlocks: UInt8 = 0x3D

    /// A one-byte parameter (crypto suite or key identifier); outside 0…255 is error 3.
    static func byte(_ value: Int, named name: String) throws -> [UInt8] {
        guard (0 ... 0xFF).contains(value) else {
            throw NFCReaderError(.readerErrorInvalidParameter, message: "\(name) \(value) does not fit in one byte")
        }
        return [UInt8(value)]
    }

    /// The whole answer as Core NFC returns it for Authenticate, Key Update and Read Buffer:
    /// response flags and what follows them (the error code when the error flag is set).
    /// - Throws: error 102 for an empty answer.
    @Sendable static func flagsAndData(_ reply: [UInt8]) throws -> (NFCISO15693ResponseFlag, Data) {
        guard let first = reply.first else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "empty ISO 15693 response")
        }
        return (NFCISO15693ResponseFlag(rawValue: first), Data(reply.dropFirst()))
    }
}
