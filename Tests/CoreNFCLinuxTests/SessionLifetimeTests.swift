@testable import CoreNFCLinux
import Foundation
import Testing

@Suite("Session queues and lifetimes")
struct SessionLifetimeTests {
    @Test("delegate callbacks run on the queue given")
    func givenQueue() {
        let h = Harness()
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate, singleRead: true)
        h.backend.place(ntag(), on: "Reader A")
        session.begin()
        h.settle(session)
        #expect(delegate.log.all.count == 3)
        #expect(delegate.log.queues == ["test.delegate", "test.delegate", "test.delegate"])
        #expect(session.sessionQueue === h.delegateQueue)
    }

    @Test("with queue nil the session makes its own serial queue and calls back on it")
    func ownQueue() {
        let h = Harness()
        let delegate = ReadOnlyDelegate()
        let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: true,
                                           configuration: h.configuration, environment: h.environment)
        session.sessionQueue.setSpecific(key: queueKey, value: "own")
        #expect(session.sessionQueue !== h.delegateQueue)
        h.backend.place(ntag(), on: "Reader A")
        session.begin()
        h.settle(session)
        #expect(delegate.log.queues == ["own", "own", "own"])
    }

    @Test("the delegate is held weakly")
    func weakDelegate() {
        let h = Harness()
        weak var weakDelegate: ReadOnlyDelegate?
        let session: NFCNDEFReaderSession
        do {
            let delegate = ReadOnlyDelegate()
            weakDelegate = delegate
            session = h.ndefSession(delegate)
            #expect(session.delegate as AnyObject? === delegate)
        }
        #expect(weakDelegate == nil)
        #expect(session.delegate == nil)
        session.begin()
        h.backend.place(ntag(), on: "Reader A")
        h.settle(session)
        session.invalidate()
        h.settle(session)
        #expect(session.isReady == false)
    }

    @Test("an active session keeps itself alive until it ends, then is released")
    func activeSessionRetained() {
        let h = Harness()
        let delegate = ReadOnlyDelegate()
        weak var weakSession: NFCNDEFReaderSession?
        do {
            let session = h.ndefSession(delegate)
            weakSession = session
            session.begin()
            h.settle(session)
        }
        #expect(weakSession != nil)
        h.backend.place(ntag(message: "01"), on: "Reader A")
        if let session = weakSession { h.settle(session) }
        #expect(delegate.log.messageBatches == [[[0x01]]])
        weakSession?.invalidate()
        if let session = weakSession { h.settle(session) }
        #expect(weakSession == nil)
        #expect(delegate.log.summary == ["active", "messages(01)", "invalidated(200)"])
    }

    @Test("configuration changes after begin() are ignored")
    func configurationFrozen() {
        let h = Harness()
        let delegate = ReadOnlyDelegate()
        let session = h.ndefSession(delegate)
        session.begin()
        session.configuration.timeLimit = .seconds(1)
        h.advance(session, by: .seconds(2))
        #expect(session.configuration.timeLimit == .seconds(60))
        #expect(delegate.log.invalidations.isEmpty)
        session.invalidate()
        h.settle(session)
    }
}
