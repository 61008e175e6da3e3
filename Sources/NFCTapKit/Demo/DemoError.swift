/// A demo step that did not go as it should (the virtual stack misbehaved): exit 1.
package struct DemoError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
