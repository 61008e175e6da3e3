@testable import CoreNFCLinux
import Foundation
import Synchronization
import Testing

/// A mock FeliCa tag as iOS test code writes one: an NSObject adopting the protocol.
final class MockFeliCaTag: NSObject, NFCFeliCaTag {
    static var supportsSecureCoding: Bool { true }
    override init() { super.init() }
    required init?(coder: NSCoder) { nil }
    func encode(with coder: NSCoder) {}
    func copy(with zone: NSZone? = nil) -> Any { self }
    var type: __NFCTagType { .feliCa }
    var session: (any NFCReaderSessionProtocol)? { nil }
    var isAvailable: Bool { true }
    var currentSystemCode: Data { Data([0x88, 0xB4]) }
    var currentIDm: Data { Data([1, 2, 3, 4, 5, 6, 7, 8]) }
    func queryNDEFStatus(completionHandler: @escaping (NFCNDEFStatus, Int, (any Error)?) -> Void) {
        completionHandler(.notSupported, 0, nil)
    }
    func readNDEF(completionHandler: @escaping (NFCNDEFMessage?, (any Error)?) -> Void) { completionHandler(nil, nil) }
    func writeNDEF(_ ndefMessage: NFCNDEFMessage, completionHandler: @escaping ((any Error)?) -> Void) { completionHandler(nil) }
    func writeLock(completionHandler: @escaping ((any Error)?) -> Void) { completionHandler(nil) }
}

/// Collects the answers of many commands started at once: the error code of each, and whether
/// any handler ran before its command returned (Core NFC's handlers never do).
final class CommandAnswers: Sendable {
    private let group = DispatchGroup()
    private let codes = Mutex<[String: Int?]>([:])
    private let synchronous = Mutex<[String]>([])
    private let caller = pthread_self()
    private let calling = Mutex(true)

    /// A handler for the command `name`.
    func handler(_ name: String) -> @Sendable ((any Error)?) -> Void {
        group.enter()
        return { [self] error in
            if calling.withLock({ $0 }), pthread_equal(pthread_self(), caller) != 0 { synchronous.withLock { $0.append(name) } }
            codes.withLock { $0[name] = code(error) }
            group.leave()
        }
    }

    func result<T>(_ name: String) -> @Sendable (Result<T, any Error>) -> Void {
        let done = handler(name)
        return { result in
            switch result {
            case .success: done(nil)
            case let .failure(error): done(error)
            }
        }
    }

    /// Every answer, once all came (nil after 5 s), and the commands answered synchronously.
    func wait() -> (codes: [String: Int?], synchronous: [String])? {
        calling.withLock { $0 = false }
        guard group.wait(timeout: .now() + 5) == .success else { return nil }
        return (codes.withLock { $0 }, synchronous.withLock { $0 })
    }
}

@Suite("Core NFC parity: every FeliCa and ISO 15693 command Apple declares")
struct UnproducedTagCommandTests {
    @Test("FeliCa: each completion and result handler answers error 1 (unsupported), asynchronously, with empty values")
    func feliCaHandlers() throws {
        let tag: any NFCFeliCaTag = MockFeliCaTag()
        let answers = CommandAnswers()
        let systemCode = Data([0xFF, 0xFF])
        tag.polling(systemCode: systemCode, requestCode: .systemCode, timeSlot: .max1) { pmm, request, error in
            #expect(pmm.isEmpty && request.isEmpty)
            answers.handler("polling")(error)
        }
        tag.requestService(nodeCodeList: [Data([0x09, 0x10])]) { versions, error in
            #expect(versions.isEmpty)
            answers.handler("requestService")(error)
        }
        let serviceV2 = answers.handler("requestServiceV2")
        tag.requestServiceV2(nodeCodeList: []) { flag1, flag2, _, aes, des, error in
            #expect(flag1 == 0 && flag2 == 0 && aes.isEmpty && des.isEmpty)
            serviceV2(error)
        }
        let response = answers.handler("requestResponse")
        tag.requestResponse { mode, error in response(error) }
        let system = answers.handler("requestSystemCode")
        tag.requestSystemCode { codes, error in system(error) }
        let read = answers.handler("readWithoutEncryption")
        tag.readWithoutEncryption(serviceCodeList: [], blockList: []) { _, _, blocks, error in
            #expect(blocks.isEmpty)
            read(error)
        }
        let write = answers.handler("writeWithoutEncryption")
        tag.writeWithoutEncryption(serviceCodeList: [], blockList: [], blockData: []) { _, _, error in write(error) }
        let version = answers.handler("requestSpecificationVersion")
        tag.requestSpecificationVersion { _, _, basic, option, error in
            #expect(basic.isEmpty && option.isEmpty)
            version(error)
        }
        let reset = answers.handler("resetMode")
        tag.resetMode { _, _, error in reset(error) }
        let command = answers.handler("sendFeliCaCommand")
        tag.sendFeliCaCommand(commandPacket: Data([0x06])) { _, error in command(error) }
        // iOS 14 result handlers.
        tag.polling(systemCode: systemCode, requestCode: .noRequest, timeSlot: .max16,
                    resultHandler: answers.result("polling/result") as @Sendable (Result<NFCFeliCaPollingResponse, any Error>) -> Void)
        tag.requestService(nodeCodeList: [], resultHandler: answers.result("requestService/result"))
        tag.requestServiceV2(nodeCodeList: [],
                             resultHandler: answers.result("requestServiceV2/result") as @Sendable (Result<NFCFeliCaRequsetServiceV2Response, any Error>) -> Void)
        tag.requestResponse(resultHandler: answers.result("requestResponse/result"))
        tag.requestSystemCode(resultHandler: answers.result("requestSystemCode/result"))
        tag.readWithoutEncryption(serviceCodeList: [], blockList: [],
                                  resultHandler: answers.result("readWithoutEncryption/result") as @Sendable (Result<(NFCFeliCaStatusFlag, [Data]), any Error>) -> Void)
        tag.writeWithoutEncryption(serviceCodeList: [], blockList: [], blockData: [],
                                   resultHandler: answers.result("writeWithoutEncryption/result") as @Sendable (Result<NFCFeliCaStatusFlag, any Error>) -> Void)
        tag.requestSpecificationVersion(
            resultHandler: answers.result("requestSpecificationVersion/result") as @Sendable (Result<NFCFeliCaRequestSpecificationVersionResponse, any Error>) -> Void)
        tag.resetMode(resultHandler: answers.result("resetMode/result") as @Sendable (Result<NFCFeliCaStatusFlag, any Error>) -> Void)
        tag.sendFeliCaCommand(commandPacket: Data(), resultHandler: answers.result("sendFeliCaCommand/result") as @Sendable (Result<Data, any Error>) -> Void)

        let (codes, synchronous) = try #require(answers.wait())
        #expect(codes.count == 20)
        #expect(codes.filter { $0.value != 1 }.isEmpty)
        #expect(synchronous.isEmpty)
    }

    @Test("FeliCa: the async forms throw NFCReaderError 1")
    func feliCaAsync() async {
        let tag: any NFCFeliCaTag = MockFeliCaTag()
        let calls: [(String, () async throws -> Void)] = [
            ("requestServiceV2", { _ = try await tag.requestServiceV2(nodeCodeList: []) }),
            ("requestResponse", { _ = try await tag.requestResponse() }),
            ("requestSpecificationVersion", { _ = try await tag.requestSpecificationVersion() }),
            ("resetMode", { _ = try await tag.resetMode() }),
            ("polling", { _ = try await tag.polling(systemCode: Data([0x12, 0xFC]), requestCode: .communicationPerformance, timeSlot: .max4) }),
        ]
        for (name, call) in calls {
            do {
                try await call()
                Issue.record("\(name) did not throw")
            } catch {
                #expect(code(error) == 1, "\(name)")
            }
        }
    }

    @Test("ISO 15693: each completion and result handler answers error 1 (unsupported), asynchronously, with empty values")
    func iso15693Handlers() throws {
        let tag: any NFCISO15693Tag = MockISO15693Tag()
        let answers = CommandAnswers()
        let flags: RequestFlag = [.highDataRate, .address]
        let range = NSMakeRange(0, 4)
        tag.writeMultipleBlocks(requestFlags: flags, blockRange: range, dataBlocks: [Data(count: 4)], completionHandler: answers.handler("writeMultipleBlocks"))
        let security = answers.handler("getMultipleBlockSecurityStatus")
        tag.getMultipleBlockSecurityStatus(requestFlags: flags, blockRange: range) { status, error in
            #expect(status.isEmpty)
            security(error)
        }
        tag.writeAFI(requestFlags: flags, afi: 0x10, completionHandler: answers.handler("writeAFI"))
        tag.lockAFI(requestFlags: flags, completionHandler: answers.handler("lockAFI"))
        tag.writeDSFID(requestFlags: flags, dsfid: 1, completionHandler: answers.handler("writeDSFID"))
        tag.lockDFSID(requestFlags: flags, completionHandler: answers.handler("lockDFSID"))
        tag.lockDSFID(requestFlags: flags, completionHandler: answers.handler("lockDSFID"))
        tag.resetToReady(requestFlags: flags, completionHandler: answers.handler("resetToReady"))
        tag.select(requestFlags: flags, completionHandler: answers.handler("select"))
        tag.extendedLockBlock(requestFlags: flags, blockNumber: 300, completionHandler: answers.handler("extendedLockBlock"))
        let extendedRead = answers.handler("extendedReadMultipleBlocks")
        tag.extendedReadMultipleBlocks(requestFlags: flags, blockRange: range) { blocks, error in
            #expect(blocks.isEmpty)
            extendedRead(error)
        }
        tag.extendedWriteMultipleBlocks(requestFlags: flags, blockRange: range, dataBlocks: [],
                                        completionHandler: answers.handler("extendedWriteMultipleBlocks"))
        let extendedSecurity = answers.handler("extendedGetMultipleBlockSecurityStatus")
        tag.extendedGetMultipleBlockSecurityStatus(requestFlags: flags, blockRange: range) { _, error in extendedSecurity(error) }
        tag.challenge(requestFlags: flags, cryptoSuiteIdentifier: 0, message: Data(), completionHandler: answers.handler("challenge"))
        // iOS 14+ result handlers.
        tag.readSingleBlock(requestFlags: flags, blockNumber: 0, resultHandler: answers.result("readSingleBlock/result") as @Sendable (Result<Data, any Error>) -> Void)
        tag.readMultipleBlocks(requestFlags: flags, blockRange: range,
                               resultHandler: answers.result("readMultipleBlocks/result") as @Sendable (Result<[Data], any Error>) -> Void)
        tag.extendedReadSingleBlock(requestFlags: flags, blockNumber: 0,
                                    resultHandler: answers.result("extendedReadSingleBlock/result") as @Sendable (Result<Data, any Error>) -> Void)
        tag.getSystemInfo(requestFlags: flags, resultHandler: answers.result("getSystemInfo/result") as @Sendable (Result<NFCISO15693SystemInfo, any Error>) -> Void)
        tag.customCommand(requestFlags: flags, customCommandCode: 0xA0, customRequestParameters: Data(),
                          resultHandler: answers.result("customCommand/result") as @Sendable (Result<Data, any Error>) -> Void)
        tag.fastReadMultipleBlocks(requestFlags: flags, blockRange: range,
                                   resultHandler: answers.result("fastReadMultipleBlocks/result") as @Sendable (Result<[Data], any Error>) -> Void)
        tag.extendedFastReadMultipleBlocks(requestFlags: flags, blockRange: range,
                                           resultHandler: answers.result("extendedFastReadMultipleBlocks/result") as @Sendable (Result<[Data], any Error>) -> Void)
        tag.authenticate(requestFlags: flags, cryptoSuiteIdentifier: 0, message: Data(),
                         resultHandler: answers.result("authenticate/result") as @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void)
        tag.keyUpdate(requestFlags: flags, keyIdentifier: 0, message: Data(),
                      resultHandler: answers.result("keyUpdate/result") as @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void)
        tag.readBuffer(requestFlags: flags, resultHandler: answers.result("readBuffer/result") as @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void)
        tag.sendRequest(requestFlags: 0x22, commandCode: 0x20, data: nil,
                        resultHandler: answers.result("sendRequest/result") as @Sendable (Result<(NFCISO15693ResponseFlag, Data?), any Error>) -> Void)

        let (codes, synchronous) = try #require(answers.wait())
        #expect(codes.count == 25)
        #expect(codes.filter { $0.value != 1 }.isEmpty)
        #expect(synchronous.isEmpty)
    }

    @Test("ISO 15693: the async forms throw NFCReaderError 1")
    func iso15693Async() async {
        let tag: any NFCISO15693Tag = MockISO15693Tag()
        let flags: NFCISO15693RequestFlag = .highDataRate
        let range = NSRange(location: 0, length: 2)
        let calls: [(String, () async throws -> Void)] = [
            ("lockBlock", { try await tag.lockBlock(requestFlags: flags, blockNumber: 1) }),
            ("writeMultipleBlocks", { try await tag.writeMultipleBlocks(requestFlags: flags, blockRange: range, dataBlocks: []) }),
            ("getMultipleBlockSecurityStatus", { _ = try await tag.getMultipleBlockSecurityStatus(requestFlags: flags, blockRange: range) }),
            ("writeAFI", { try await tag.writeAFI(requestFlags: flags, afi: 1) }),
            ("lockAFI", { try await tag.lockAFI(requestFlags: flags) }),
            ("writeDSFID", { try await tag.writeDSFID(requestFlags: flags, dsfid: 1) }),
            ("lockDSFID", { try await tag.lockDSFID(requestFlags: flags) }),
            ("resetToReady", { try await tag.resetToReady(requestFlags: flags) }),
            ("select", { try await tag.select(requestFlags: flags) }),
            ("stayQuiet", { try await tag.stayQuiet() }),
            ("extendedWriteSingleBlock", { try await tag.extendedWriteSingleBlock(requestFlags: flags, blockNumber: 1, dataBlock: Data()) }),
            ("extendedLockBlock", { try await tag.extendedLockBlock(requestFlags: flags, blockNumber: 1) }),
            ("extendedReadMultipleBlocks", { _ = try await tag.extendedReadMultipleBlocks(requestFlags: flags, blockRange: range) }),
            ("extendedWriteMultipleBlocks", { try await tag.extendedWriteMultipleBlocks(requestFlags: flags, blockRange: range, dataBlocks: []) }),
            ("getSystemInfo", { _ = try await tag.getSystemInfo(requestFlags: flags) }),
            ("systemInfo", { _ = try await tag.systemInfo(requestFlags: flags) }),
            ("fastReadMultipleBlocks", { _ = try await tag.fastReadMultipleBlocks(requestFlags: flags, blockRange: range) }),
            ("extendedFastReadMultipleBlocks", { _ = try await tag.extendedFastReadMultipleBlocks(requestFlags: flags, blockRange: range) }),
            ("authenticate", { _ = try await tag.authenticate(requestFlags: flags, cryptoSuiteIdentifier: 0, message: Data()) }),
            ("keyUpdate", { _ = try await tag.keyUpdate(requestFlags: flags, keyIdentifier: 0, message: Data()) }),
            ("challenge", { try await tag.challenge(requestFlags: flags, cryptoSuiteIdentifier: 0, message: Data()) }),
            ("readBuffer", { _ = try await tag.readBuffer(requestFlags: flags) }),
            ("sendRequest", { _ = try await tag.sendRequest(requestFlags: 0x02, commandCode: 0x2B, data: nil) }),
        ]
        for (name, call) in calls {
            do {
                try await call()
                Issue.record("\(name) did not throw")
            } catch {
                #expect(code(error) == 1, "\(name)")
            }
        }
    }

    @Test("Apple's raw values: FeliCa encryption ids, ISO 15693 response flags; the global type names are the same types")
    func rawValuesAndNames() {
        #expect(NFCFeliCaEncryptionId.AES.rawValue == 0x4F && NFCFeliCaEncryptionId.AES_DES.rawValue == 0x41)
        #expect(NFCFeliCaEncryptionId.aes == .AES && NFCFeliCaEncryptionId.aes_des == .AES_DES)
        #expect(NFCFeliCaEncryptionId(rawValue: 0x42) == nil)
        #expect(EncryptionId(rawValue: 0x4F) == .AES)
        let response: [NFCISO15693ResponseFlag] = [.error, .responseBufferValid, .finalResponse, .protocolExtension,
                                                   .blockSecurityStatusBit5, .blockSecurityStatusBit6, .waitTimeExtension]
        #expect(response.map(\.rawValue) == [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40])
        #expect(PollingRequestCode(rawValue: 1) == .systemCode && PollingTimeSlot(rawValue: 15) == .max16)
        #expect(RequestFlag.select.rawValue == 0x10 && MockISO15693Tag.RequestFlag.address.rawValue == 0x20)
        #expect(MockFeliCaTag.EncryptionId.AES_DES.rawValue == 0x41)
        let info = NFCISO15693SystemInfo(uniqueIdentifier: Data([0xE0]), dataStorageFormatIdentifier: -1, applicationFamilyIdentifier: -1,
                                         blockSize: 4, totalBlocks: 64, icReference: -1)
        #expect(info.blockSize * info.totalBlocks == 256)
        let v2 = NFCFeliCaRequsetServiceV2Response(statusFlag1: 0, statusFlag2: 0, encryptionIdentifier: .AES,
                                                   nodeKeyVersionListAES: [Data([1, 0])], nodeKeyVersionListDES: nil)
        #expect(v2.nodeKeyVersionListAES?.count == 1 && v2.nodeKeyVersionListDES == nil)
    }

    @Test("A FeliCa tag goes through NFCTag and the family casts like the others")
    func feliCaCasts() {
        let tag = MockFeliCaTag()
        #expect(tag.asNFCFeliCaTag() != nil && tag.asNFCISO7816Tag() == nil && tag.asNFCISO15693Tag() == nil)
        guard case let .feliCa(same) = NFCTag.feliCa(tag) else {
            Issue.record("not .feliCa")
            return
        }
        #expect(same.currentIDm == Data([1, 2, 3, 4, 5, 6, 7, 8]) && NFCTag.feliCa(tag).isAvailable)
    }

    @Test("NFCReaderError.userInfo is the bridged NSError's user info; the two user-info keys are declared")
    func errorUserInfo() {
        let error = NFCReaderError(.readerTransceiveErrorTagResponseError, userInfo: [NSLocalizedDescriptionKey: "NAK 0x0"])
        #expect(error.userInfo[NSLocalizedDescriptionKey] as? String == "NAK 0x0")
        #expect((error as NSError).userInfo[NSLocalizedDescriptionKey] as? String == "NAK 0x0")
        #expect(error.userInfo[NFCISO15693TagResponseErrorKey] == nil && error.userInfo[NFCTagResponseUnexpectedLengthErrorKey] == nil)
        #expect(NFCISO15693TagResponseErrorKey != NFCTagResponseUnexpectedLengthErrorKey)
    }
}
