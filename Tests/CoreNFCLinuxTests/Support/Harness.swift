@testable import CoreNFCLinux
import Foundation
import NDEF
import NFCTags
import ReaderCore
import Synchronization
import Testing

let queueKey = DispatchSpecificKey<String>()

/// One test's world: a fake backend, a manual clock, its own session slot and a delegate queue.
final class Harness: Sendable {
    let clock = ManualClock()
    let backend: FakeBackend
    let slot = NFCSessionSlot()
    let delegateQueue: DispatchQueue
    private let alertLog = Mutex<[String]>([])
    private let sessionConfiguration = Mutex(NFCSessionConfiguration())

    /// The alert texts sessions showed, in order.
    var alerts: [String] { alertLog.withLock { $0 } }

    /// What the harness's sessions are made with; tests adjust it before making one.
    var configuration: NFCSessionConfiguration {
        get { sessionConfiguration.withLock { $0 } }
        set { sessionConfiguration.withLock { $0 = newValue } }
    }

    init(readers: [String] = ["Reader A"]) {
        backend = FakeBackend(readers: readers)
        delegateQueue = DispatchQueue(label: "test.delegate")
        delegateQueue.setSpecific(key: queueKey, value: "test.delegate")
        configuration.batchWindow = .zero
        configuration.alertHandler = { [weak self] text in self?.alertLog.withLock { $0.append(text) } }
    }

    var environment: NFCReaderEnvironment {
        let backend = self.backend
        var environment = NFCReaderEnvironment(
            makeBackends: { [backend] },
            makeNDEFOperations: { connection in
                guard let fake = connection as? FakeConnection else { throw TagError.unsupported("not a fake connection") }
                return FakeNDEFOperations(card: fake.card)
            },
            clock: clock, slot: slot)
        // Stand-ins for the NDEF codec: a message is one record whose payload is the tag's bytes.
        environment.decodeMessage = { bytes in
            if bytes.first == 0xBA { throw TagError.invalidTagData("undecodable") }
            return NDEFMessage(records: [NDEFRecord(tnf: .unknown, payload: bytes)])
        }
        environment.encodeMessage = { message in message.records.flatMap { [UInt8]($0.payload) } }
        return environment
    }

    func ndefSession(_ delegate: any NFCNDEFReaderSessionDelegate, singleRead: Bool = false) -> NFCNDEFReaderSession {
        NFCNDEFReaderSession(delegate: delegate, queue: delegateQueue, invalidateAfterFirstRead: singleRead,
                             configuration: configuration, environment: environment)
    }

    func tagSession(_ delegate: any NFCTagReaderSessionDelegate,
                    polling: NFCTagReaderSession.PollingOption = .iso14443) -> NFCTagReaderSession? {
        NFCTagReaderSession(pollingOption: polling, delegate: delegate, queue: delegateQueue,
                            configuration: configuration, environment: environment)
    }

    /// Lets queued work finish: engine → delegate queue hops, a few rounds deep.
    func settle(_ session: NFCReaderSession) {
        for _ in 0..<5 {
            session.engine.queue.sync {}
            // Tag I/O runs on reader lanes; a lane stuck on purpose (a stalled tag) is left alone.
            ReaderLane.waitUntilAllIdle(timeout: 0.2)
            session.engine.queue.sync {}
            session.sessionQueue.sync {}
        }
    }

    /// Advances the clock, then settles.
    func advance(_ session: NFCReaderSession, by delta: Duration) {
        settle(session)
        clock.advance(by: delta)
        settle(session)
    }
}

func payload(_ message: NFCNDEFMessage) -> [UInt8] {
    message.records.flatMap { [UInt8]($0.payload) }
}

func ndefMessage(_ bytes: [UInt8]) -> NFCNDEFMessage {
    NFCNDEFMessage(records: [NFCNDEFPayload(format: .unknown, type: Data(), identifier: Data(), payload: Data(bytes))])
}

func code(_ error: (any Error)?) -> Int? {
    (error as? NFCReaderError)?.code.rawValue
}

/// Card factories.
func ntag(_ uidHex: String = "04 A1 B2 C3 D4 E5 80", message: String = "D1 01 04 55 04 61 2E 62") -> FakeCard {
    FakeCard(uid: [UInt8](hex: uidHex)!, technology: .type2, message: [UInt8](hex: message)!)
}

func type4Card(_ uidHex: String = "08 11 22 33", message: String = "D1 01 01 54 00") -> FakeCard {
    FakeCard(uid: [UInt8](hex: uidHex)!, technology: .type4, message: [UInt8](hex: message)!, historicalBytes: [0x80, 0x73])
}
