import CoreNFCLinux
import ReaderCore

/// Before an inventory starts: is there a reader to tap on? The session itself would start with
/// none (readers may come later), but a backend that cannot list readers at the start is not
/// watched afterwards, so "no pcscd / no reader" is better said at once (exit 3).
package enum InventoryPreflight {
    /// The readers attached now that `names` select (all when empty).
    /// - Throws: `NoReader` saying what is missing (with the backends' hints, e.g. "start pcscd").
    package static func readers(in environment: NFCReaderEnvironment, matching names: [String]) throws -> [ReaderInfo] {
        var attached: [ReaderInfo] = []
        var failures: [String] = []
        for backend in try environment.makeBackends() {
            do {
                attached += try backend.listReaders()
            } catch {
                failures.append(String(describing: error))
            }
        }
        let selected: [ReaderInfo]
        do {
            selected = try ReaderSelection.select(names, from: attached)
        } catch {
            throw NoReader(description: String(describing: error))
        }
        guard selected.isEmpty else { return selected }
        if !attached.isEmpty {
            let wanted = names.map { "\"\($0)\"" }.joined(separator: " or ")
            throw NoReader(description: "no reader matches \(wanted) (attached: \(attached.map(\.name).joined(separator: ", ")))")
        }
        if !failures.isEmpty { throw NoReader(description: failures.joined(separator: "; ")) }
        throw NoReader(description: ReaderError.noReaders.description + " (plug one in; is pcscd running?)")
    }

    package struct NoReader: Error, CustomStringConvertible {
        package var description: String
    }
}
