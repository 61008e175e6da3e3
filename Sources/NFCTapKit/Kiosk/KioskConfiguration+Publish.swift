import Fleet

extension KioskConfiguration {
    /// `"publish": {"url": "mqtt://HOST[:PORT][/TOPIC]", "caFile": …, "site": …, "station": …}`:
    /// the output file's lines also go to the broker; the topic is the URL's, else
    /// `nfctap/<site>/<station>/taps` (station: the host name).
    package static func parsePublish(_ value: ConfigJSON, configuration c: KioskConfiguration,
                             fail: @escaping (String?, String) -> KioskConfigurationError) throws -> PublishSettings {
        guard case let .object(p) = value else {
            throw fail("publish", "expected an object like {\"url\": \"mqtt://broker/nfctap/site/station/taps\"}, got \(value.kind)")
        }
        let known = ["caFile", "site", "station", "url"]
        for key in p.keys.sorted() where !known.contains(key) {
            throw fail("publish.\(key)", "unknown setting (known: \(known.joined(separator: ", ")))")
        }
        let r = Reader(doc: p, prefix: "publish.", fail: fail)
        guard let url = try r.string("url") else { throw fail("publish.url", "missing: the broker, e.g. mqtt://broker.example/nfctap/site/station/taps") }
        let caFile = try r.string("caFile")
        if let caFile, !caFile.hasPrefix("/") { throw fail("publish.caFile", "must be an absolute path") }
        if let caFile {
            do { try CAFile.validate(caFile) } catch { throw fail("publish.caFile", "\(error)") }
        }
        guard case .file = c.output else {
            throw fail("publish", "needs \"output\" to be a file: the file is the outbox records are published from")
        }
        switch c.action {
        case .json, .pair(.json): break
        default: throw fail("publish", "publishes the JSON lines of \"action\": \"json\" or \"pairWith\": \"json\"; this action writes none")
        }
        do {
            return try PublishSettings(url: url, caFile: caFile, site: try r.string("site"), station: try r.string("station"))
        } catch {
            throw fail("publish.url", "\(error)")
        }
    }
}
