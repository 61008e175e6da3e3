import Dispatch
import ReaderCore

/// The reader watchdog of a kiosk-style session (`readerRemovalEndsSession = false`: the kiosk,
/// `inventory`, the agent). Every `readerWatchdogInterval` it asks each backend that lists readers
/// cheaply (PC/SC, virtual; not libnfc, whose listing opens devices) which readers its service
/// lists. A reader listed (and admitted by the filter) that the session was not watching at two
/// checks in a row is re-attached: the backend's monitor is restarted, reported as the service
/// lost (`.serviceLost`, its reason naming the readers), then restored with its readers and tags. A monitor that lost a reader (a remove and
/// an add pcsc-lite could not tell apart) thus costs a few seconds, never the rest of the run.
/// docs/faults.md "Reader faults".
extension SessionEngine {
    static let readerWatchdogInterval: Duration = .seconds(2)

    func scheduleReaderWatchdog() {
        watchdogTimer = schedule(after: Self.readerWatchdogInterval) { [weak self] in self?.checkReaders() }
    }

    /// Lists off the engine queue (a pcscd that does not answer holds only this check), compares on it.
    private func checkReaders() {
        let backends = monitoredBackends.filter { $0.kind != .libnfc }
        DispatchQueue.global(qos: .utility).async { [weak self] in
            let listed = backends.map { backend in (backend, try? backend.listReaders()) }
            self?.queue.async { [weak self] in
                guard let self, self.phase == .active else { return }
                for (backend, readers) in listed {
                    if let readers { self.compare(backend, listed: readers) }
                }
                self.scheduleReaderWatchdog()
            }
        }
    }

    private func compare(_ backend: any ReaderBackend, listed: [ReaderInfo]) {
        let current = readers.values.map(\.info)
        let missing = Set(listed.filter { info in
            readers[info.name]?.backend !== backend && configuration.readerFilter.admits(info, current: current)
        }.map(\.name))
        let key = ObjectIdentifier(backend)
        let overdue = missing.intersection(unwatched[key] ?? [])
        unwatched[key] = missing.subtracting(overdue)
        if !overdue.isEmpty { reattach(backend, overdue.sorted()) }
    }

    /// Restarts `backend`'s monitor: its readers are removed (their tags leave), then reported
    /// again by the new monitor with the tags on them now.
    private func reattach(_ backend: any ReaderBackend, _ names: [String]) {
        guard let index = monitoredBackends.firstIndex(where: { $0 === backend }) else { return }
        let old = monitors[index]
        old.stop()
        MonitorsAtExit.untrack(old)
        let reason = "re-attaching \(names.joined(separator: ", ")): the service lists "
            + (names.count == 1 ? "it" : "them") + ", but the session had not been watching "
            + (names.count == 1 ? "it" : "them") + " for \(Self.readerWatchdogInterval.components.seconds) s"
        emit(.serviceLost(backend.kind, .serviceUnavailable(hint: reason)))
        for (_, reader) in readers where reader.backend === backend { removeReader(reader.info) }
        do {
            monitors[index] = try startMonitor(backend)
            emit(.serviceRestored(backend.kind))
        } catch {
            monitors.remove(at: index)
            monitoredBackends.remove(at: index)
            emit(.serviceLost(backend.kind, error))
        }
    }
}
