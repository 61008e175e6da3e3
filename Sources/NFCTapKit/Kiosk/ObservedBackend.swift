import ReaderCore

/// A backend that reports its service going away and coming back (pcscd killed and restarted,
/// a libnfc device closed) to the kiosk, which sessions do not surface; everything else passes
/// through unchanged.
package final class ObservedBackend: ReaderBackend, @unchecked Sendable {
    // @unchecked: both stored properties are immutable and Sendable in use.
    package let base: any ReaderBackend
    private let onServiceChange: @Sendable (ReaderBackendKind, ReaderError?) -> Void

    /// - Parameter onServiceChange: called on the monitor thread with the error when the service
    ///   is lost, nil when it is restored.
    package init(_ base: any ReaderBackend, onServiceChange: @escaping @Sendable (ReaderBackendKind, ReaderError?) -> Void) {
        self.base = base
        self.onServiceChange = onServiceChange
    }

    package var kind: ReaderBackendKind { base.kind }

    package func listReaders() throws -> [ReaderInfo] { try base.listReaders() }

    package func startMonitoring(_ handler: @escaping @Sendable (ReaderEvent) -> Void) throws -> ReaderMonitor {
        let kind = base.kind
        let report = onServiceChange
        return try base.startMonitoring { event in
            switch event {
            case let .serviceLost(error): report(kind, error)
            case .serviceRestored: report(kind, nil)
            default: break
            }
            handler(event)
        }
    }

    package func connect(to tag: DetectedTag, exclusive: Bool) throws -> TagConnection {
        try base.connect(to: tag, exclusive: exclusive)
    }
}
