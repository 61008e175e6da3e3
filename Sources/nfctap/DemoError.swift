/// A demo step that did not go as it should (the virtual stack misbehaved): exit 1.
struct DemoError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
