import Foundation

/// The forwarder's file side: opening the record file with its saved position, saving the
/// position, following a rotated file. Runs on the forwarding thread only.
extension Forwarder {
    func openOutbox() {
        let path = configuration.outboxPath
        guard FileManager.default.fileExists(atPath: path) else {
            setConnection(.waitingForFile)
            return
        }
        do {
            let fresh = try OutboxReader(path: path)
            var saved = try OutboxPosition.load(path: configuration.positionPath)
            if let old = saved, old.inode != fresh.inode || old.offset > fresh.size {
                log(.warning, "\(path) is not the file \(configuration.positionPath) was kept for (replaced or rotated): publishing it from its start")
                saved = nil
            }
            let position = saved ?? OutboxPosition(device: fresh.device, inode: fresh.inode)
            if saved == nil { try position.save(path: configuration.positionPath) }
            fresh.rewind(to: position.offset)
            adopt(reader: fresh, position: position)
            watcher = FileWatcher(path: path)
        } catch {
            log(.error, "\(error)")
            setConnection(.waitingForFile, error: "\(error)")
            sleep(for: .seconds(1))
        }
    }

    func adopt(reader: OutboxReader, position: OutboxPosition) {
        self.reader = reader
        self.position = position
        persistedOffset = position.offset
        nextSequence = position.records + 1
        shared.withLock { shared in
            shared.acknowledgedOffset = position.offset
            shared.status.acknowledgedRecords = position.records
        }
    }

    func persistIfDue() {
        if position.offset != persistedOffset, ContinuousClock.now - lastPersist >= configuration.persistInterval { persist() }
    }

    func persist() {
        guard reader != nil, position.offset != persistedOffset else { return }
        do {
            try position.save(path: configuration.positionPath)
            persistedOffset = position.offset
            lastPersist = .now
        } catch {
            log(.error, "\(error)")
        }
    }

    /// At the end of the file with nothing in flight: if another file now has the path (rotated),
    /// finish with this one and publish the new one from its start.
    func checkRotation() {
        guard inFlight.isEmpty, let reader, ContinuousClock.now - lastRotationCheck > .seconds(1) else { return }
        lastRotationCheck = .now
        var st = stat()
        guard stat(configuration.outboxPath, &st) == 0 else { return }
        let size = reader.size
        if UInt64(st.st_ino) != reader.inode || UInt64(st.st_dev) != reader.device {
            guard (try? reader.peekEmpty()) ?? true else { return }
            persist()
            log(.info, "\(configuration.outboxPath) was replaced (rotated): publishing the new file from its start")
            self.reader = nil
            try? FileManager.default.removeItem(atPath: configuration.positionPath)
            openOutbox()
        } else if size < position.offset {
            log(.warning, "\(configuration.outboxPath) shrank below the published position: publishing it again from its start with new record ids")
            self.reader = nil
            try? FileManager.default.removeItem(atPath: configuration.positionPath)
            openOutbox()
        }
    }
}
