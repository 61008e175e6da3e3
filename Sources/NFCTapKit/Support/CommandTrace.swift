import ReaderCore

/// `--trace` (and the kiosk's `"trace": true`): the exchange trace on stderr.
package enum CommandTrace {
    /// Installs the stderr trace once for the process.
    package static func start() {
        guard ExchangeTrace.active == nil else { return }
        ExchangeTrace.install(ExchangeTrace { line in Stderr.line("nfctap trace: \(line)") })
    }
}
