/// The reply of `ObjectManager.GetManagedObjects` (`a{oa{sa{sv}}}`), or one `InterfacesAdded`
/// payload: object path → interface → property → value (variants removed).
package struct ManagedObjects: Sendable, Equatable {
    package var objects: [String: [String: [String: DBusValue]]]

    package init(objects: [String: [String: [String: DBusValue]]] = [:]) {
        self.objects = objects
    }

    /// Parses `a{oa{sa{sv}}}`; nil when the value has another shape.
    package init?(_ value: DBusValue) {
        guard case .dict(_, _, let entries) = value.unwrapped else { return nil }
        var objects: [String: [String: [String: DBusValue]]] = [:]
        for e in entries {
            guard let path = e.key.string, let interfaces = Self.interfaces(e.value) else { return nil }
            objects[path] = interfaces
        }
        self.objects = objects
    }

    /// Parses `a{sa{sv}}` (one object's interfaces, as in `InterfacesAdded`).
    package static func interfaces(_ value: DBusValue) -> [String: [String: DBusValue]]? {
        guard case .dict(_, _, let entries) = value.unwrapped else { return nil }
        var out: [String: [String: DBusValue]] = [:]
        for e in entries {
            guard let name = e.key.string, let props = e.value.stringKeyed else { return nil }
            out[name] = props
        }
        return out
    }

    /// Paths of objects implementing `interface`, sorted (so "the first adapter" is stable: hci0 before hci1).
    package func paths(implementing interface: String) -> [String] {
        objects.filter { $0.value[interface] != nil }.map(\.key).sorted()
    }

    /// The properties of `interface` on `path`.
    package func properties(_ path: String, _ interface: String) -> [String: DBusValue]? {
        objects[path]?[interface]
    }
}
