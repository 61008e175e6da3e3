import CoreNFCLinux
import Foundation
import ReaderCore

/// Watches what a session does with its backends, for the desk messages Core NFC's surface does
/// not carry: the readers found when the session started ("Hold a tag near …") and the reader-level
/// view (reader name, UID, technology) of the tag a read-write or tag session connected to.
package final class ScanRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var readers: [ReaderInfo] = []
    private var connected: DetectedTag?
    private var arrived: DetectedTag?

    package init() {}

    /// `base` with every backend wrapped so this recorder sees its reader lists and connections.
    package func environment(wrapping base: NFCReaderEnvironment) -> NFCReaderEnvironment {
        var environment = base
        let make = base.makeBackends
        environment.makeBackends = { [self] in try make().map { RecordingBackend(base: $0, recorder: self) } }
        return environment
    }

    /// Names of the readers the backends listed (in order, once each) that `names` selects,
    /// by `ReaderSelection`'s rule as the session selects them.
    package func readerNames(matching names: [String]) -> [String] {
        lock.withLock {
            var seen = Set<String>()
            let listed = readers.filter { seen.insert($0.name).inserted }
            return ((try? ReaderSelection.select(names, from: listed)) ?? []).map(\.name)
        }
    }

    /// The tag of the last connection the session opened.
    package var lastConnectedTag: DetectedTag? { lock.withLock { connected } }

    /// The last tag that arrived on a reader (read or not).
    package var lastArrivedTag: DetectedTag? { lock.withLock { arrived } }

    fileprivate func saw(_ event: ReaderEvent) {
        if case let .tagArrived(tag) = event { lock.withLock { arrived = tag } }
    }

    fileprivate func listed(_ infos: [ReaderInfo]) {
        lock.withLock { readers += infos }
    }

    fileprivate func connecting(to tag: DetectedTag) {
        lock.withLock { connected = tag }
    }
}

/// Forwards every call to `base`, telling the recorder what it listed and connected to.
private final class RecordingBackend: ReaderBackend, @unchecked Sendable {
    package let base: any ReaderBackend
    package let recorder: ScanRecorder

    package init(base: any ReaderBackend, recorder: ScanRecorder) {
        self.base = base
        self.recorder = recorder
    }

    package var kind: ReaderBackendKind { base.kind }

    package func listReaders() throws -> [ReaderInfo] {
        let readers = try base.listReaders()
        recorder.listed(readers)
        return readers
    }

    /// The session holds its backends weakly and its monitors strongly: the monitor keeps this
    /// wrapper alive for as long as the session listens.
    package func startMonitoring(_ handler: @escaping @Sendable (ReaderEvent) -> Void) throws -> any ReaderMonitor {
        let recorder = self.recorder
        return RecordingMonitor(base: try base.startMonitoring { event in
            recorder.saw(event)
            handler(event)
        }, backend: self)
    }

    package func connect(to tag: DetectedTag, exclusive: Bool) throws -> any TagConnection {
        let connection = try base.connect(to: tag, exclusive: exclusive)
        recorder.connecting(to: tag)
        return connection
    }
}

/// A monitor that keeps its `RecordingBackend` alive.
private final class RecordingMonitor: ReaderMonitor, @unchecked Sendable {
    package let base: any ReaderMonitor
    package let backend: RecordingBackend

    package init(base: any ReaderMonitor, backend: RecordingBackend) {
        self.base = base
        self.backend = backend
    }

    package func stop() { base.stop() }
}
