import Fleet

extension KioskConfiguration {
    /// `"homeassistant": {"prefix": "homeassistant", "node": "nfctap", "object": …, "field": "uid"}`
    /// (every key optional; `{}` announces the station with the defaults): needs `"publish"`.
    package static func parseHomeAssistant(_ value: ConfigJSON, configuration c: KioskConfiguration,
                                           fail: @escaping (String?, String) -> KioskConfigurationError) throws -> HomeAssistantDiscovery {
        let r = try settingsObject(value, key: "homeassistant", known: ["field", "node", "object", "prefix"],
                                   example: #"{"prefix": "homeassistant"}"#, fail: fail)
        guard c.publish != nil else { throw fail("homeassistant", "needs \"publish\": the taps reach Home Assistant through the broker") }
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
        let r = try settingsObject(value, key: "publish", known: ["caFile", "site", "station", "url"],
                                   example: #"{"url": "mqtt://broker/nfctap/site/station/taps"}"#, fail: fail)
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

    /// An object of settings whose keys are all `known`, read with `key.` in front of errors.
    private static func settingsObject(_ value: ConfigJSON, key: String, known: [String], example: String,
                                       fail: @escaping (String?, String) -> KioskConfigurationError) throws -> Reader {
        guard case let .object(doc) = value else {
            throw fail(key, "expected an object like \(example), got \(value.kind)")
        }
        for name in doc.keys.sorted() where !known.contains(name) {
            throw fail("\(key).\(name)", "unknown setting (known: \(known.joined(separator: ", ")))")
        }
        return Reader(doc: doc, prefix: key + ".", fail: fail)
    }
}
