import Fleet

extension KioskConfiguration {
    /// `"homeassistant": {"prefix": "homeassistant", "node": "nfctap", "object": …, "field": "uid"}`
    /// (every key optional; `{}` announces the station with the defaults): needs `"publish"`.
    package static func parseHomeAssistant(_ value: ConfigJSON, configuration c: KioskConfiguration,
                                           fail: @escaping (String?, String) -> KioskConfigurationError) throws -> HomeAssistantDiscovery {
        guard case let .object(h) = value else {
            throw fail("homeassistant", "expected an object like {\"prefix\": \"homeassistant\"}, got \(value.kind)")
        }
        let known = ["field", "node", "object", "prefix"]
        for key in h.keys.sorted() where !known.contains(key) {
            throw fail("homeassistant.\(key)", "unknown setting (known: \(known.joined(separator: ", ")))")
        }
        guard c.publish != nil else { throw fail("homeassistant", "needs \"publish\": the taps reach Home Assistant through the broker") }
        let r = Reader(doc: h, prefix: "homeassistant.", fail: fail)
        do {
            return try HomeAssistantDiscovery(prefix: try r.string("prefix") ?? "homeassistant", node: try r.string("node") ?? "nfctap",
                                              object: try r.string("object"), field: try r.string("field") ?? "uid")
        } catch let error as KioskConfigurationError {
            throw error
        } catch {
            throw fail("homeassistant", "\(error)")
        }
    }

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
