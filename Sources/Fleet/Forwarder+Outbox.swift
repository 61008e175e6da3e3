import Foundation

/// The forwarder's file side: opening the file the saved position was kept for (at the path, or
/// rotated beside it), saving the position, moving on to the next file once one is done.
/// Runs on the forwarding thread only. docs/fleet.md: rotation.
extension Forwarder {
    func openOutbox() {
        let path = configuration.outboxPath
        do {
            if let saved = try OutboxPosition.load(path: configuration.positionPath) {
                try resume(saved)
            } else {
                guard let fresh = try openIfPresent(path) else {
                    setConnection(.waitingForFile)
                    return
                }
                let position = OutboxPosition(device: fresh.device, inode: fresh.inode, modified: fresh.modified)
                try position.save(path: configuration.positionPath)
                adopt(reader: fresh, position: position)
            }
        } catch {
            reportFileProblem(error)
        }
    }

    /// Opens the file `saved` was kept for: the path itself, or a rotated file beside it.
    private func resume(_ saved: OutboxPosition) throws {
        let path = configuration.outboxPath
        let rotated = RotatedFiles(outboxPath: path, owner: try openIfPresent(path)?.owner)
        var candidate: OutboxReader?
        if let atPath = try openIfPresent(path), atPath.device == saved.device, atPath.inode == saved.inode {
            candidate = atPath
        } else if let moved = rotated.find(device: saved.device, inode: saved.inode) {
            candidate = try OutboxReader(path: moved.path)
            if let found = candidate, found.inode == saved.inode {
                log(.info, "\(path) was rotated: finishing \(moved.path) from record \(saved.records + 1) first")
            } else {
                candidate = nil
            }
        }
        if let reader = candidate {
            if let head = saved.head, let length = head.split(separator: ":").last.flatMap({ UInt64($0) }),
               reader.head(within: length) != head {
                log(.warning, "\(reader.path) has the inode of the file \(configuration.positionPath) was kept for but not its first record (a new file): publishing it from its start")
                try start(reader, logging: nil)
                return
            }
            if saved.offset > reader.size {
                log(.warning, "\(reader.path) shrank below the published position: publishing it again from its start with new record ids")
                try start(reader, logging: nil)
                return
            }
            reader.rewind(to: saved.offset)
            adopt(reader: reader, position: saved)
            return
        }
        log(.warning, "the file \(configuration.positionPath) was kept for is gone (deleted, or rotated out of reach): its records not yet published are lost; going on with the files written after it")
        try advance(after: saved.modified ?? 0, finishedInode: saved.inode)
    }

    /// Moves to the next file: a rotated file written after the finished one, else the path's.
    func advance(after modified: Double, finishedInode: UInt64?) throws {
        let path = configuration.outboxPath
        let current = try openIfPresent(path)
        let next = RotatedFiles(outboxPath: path, owner: reader?.owner ?? current?.owner)
            .successors(after: modified, except: finishedInode, currentInode: current?.inode)
            .first
        if let next, let reader = try? OutboxReader(path: next.path), reader.inode == next.inode {
            try start(reader, logging: "\(path) was rotated more than once: publishing \(next.path) (written after the last file published) from its start")
        } else if let current, current.inode != finishedInode {
            try start(current, logging: "publishing \(path) (a new file) from its start")
        } else {
            // Nothing newer yet: wait for the path to name a new file.
            try? FileManager.default.removeItem(atPath: configuration.positionPath)
            reader = nil
            setConnection(.waitingForFile)
        }
    }

    /// Adopts `reader` from its start with a new file id, saved at once.
    private func start(_ reader: OutboxReader, logging message: String?) throws {
        if let message { log(.info, message) }
        let position = OutboxPosition(device: reader.device, inode: reader.inode, modified: reader.modified)
        try position.save(path: configuration.positionPath)
        reader.rewind(to: 0)
        adopt(reader: reader, position: position)
    }

    private func openIfPresent(_ path: String) throws -> OutboxReader? {
        do {
            return try OutboxReader(path: path)
        } catch let FleetError.io(_, _, code) where code == ENOENT {
            return nil
        }
    }

    func reportFileProblem(_ error: any Error) {
        let text = "\(error)"
        if text != lastFileProblem { log(.error, text) }
        lastFileProblem = text
        reader = nil
        setConnection(.waitingForFile, error: text)
        sleep(for: .milliseconds(250))
    }

    func adopt(reader: OutboxReader, position: OutboxPosition) {
        self.reader = reader
        self.position = position
        persistedOffset = position.offset
        nextSequence = position.records + 1
        lastFileProblem = nil
        rotationSeenAt = nil
        shared.withLock { shared in
            shared.acknowledgedOffset = position.offset
            shared.readingPath = reader.path
            shared.status.acknowledgedRecords = position.records
        }
        watcher = FileWatcher(path: configuration.outboxPath)
    }

    func persistIfDue() {
        if position.offset != persistedOffset, ContinuousClock.now - lastPersist >= configuration.persistInterval { persist() }
    }

    func persist() {
        guard let reader, position.offset != persistedOffset else { return }
        do {
            position.modified = reader.modified
            if position.head == nil, position.offset > 0 { position.head = reader.head(within: position.offset) }
            try position.save(path: configuration.positionPath)
            persistedOffset = position.offset
            lastPersist = .now
        } catch {
            log(.error, "\(error)")
        }
    }

    /// At the end of the file with nothing in flight: when the path names another file (rotated)
    /// and the writer has let go of this one, finish it and move on; a file cut below the
    /// published position is published again from its start.
    func checkRotation() {
        guard inFlight.isEmpty, let reader, ContinuousClock.now - lastRotationCheck > .milliseconds(200) else { return }
        lastRotationCheck = .now
        var st = stat()
        let atPath = lstat(configuration.outboxPath, &st) == 0
        if atPath, UInt64(st.st_ino) == reader.inode, UInt64(st.st_dev) == reader.device {
            rotationSeenAt = nil
            if reader.size < position.offset {
                log(.warning, "\(configuration.outboxPath) shrank below the published position: publishing it again from its start with new record ids")
                do { try start(reader, logging: nil) } catch { reportFileProblem(error) }
            }
            return
        }
        // Rotated (or deleted). Not done while nfctap's writer still has it open (it locks what it
        // writes), nor while a complete record is left; a writer without locks gets 1 s more.
        let seen = rotationSeenAt ?? .now
        rotationSeenAt = seen
        guard ContinuousClock.now - seen >= .seconds(1), !reader.writerHoldsFile,
              (try? reader.peekEmpty()) ?? false, !reader.writerBusy else { return }
        persist()
        do {
            try advance(after: reader.modified, finishedInode: reader.inode)
        } catch {
            reportFileProblem(error)
        }
    }
}
