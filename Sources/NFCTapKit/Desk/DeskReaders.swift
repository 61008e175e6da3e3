import CoreNFCLinux

/// The reader settings a desk command (`scan`, `write`, `apdu`) runs with: what its `--reader`,
/// `--io-timeout` and `--trace` options became.
package struct DeskReaders: Sendable {
    package var filter: NFCReaderFilter
    package var environment: NFCReaderEnvironment
    package var operationTimeout: Duration?

    package init(filter: NFCReaderFilter = .all, environment: NFCReaderEnvironment, operationTimeout: Duration? = .seconds(5)) {
        self.filter = filter
        self.environment = environment
        self.operationTimeout = operationTimeout
    }
}
