/// Strict UTF-8 decoding that refuses control and format characters: the one check used for
/// every text that comes from a tag or a printer.
enum TextCheck {
    enum Failure: Error { case invalidUTF8, controlCharacter }

    /// Decodes `bytes` as UTF-8 (overlong forms and surrogates are errors) and rejects
    /// C0, DEL, C1 (category Cc) and format characters (Cf: bidi overrides, zero-width
    /// characters, the BOM), which can make text display as something it is not.
    static func decode(_ bytes: some Sequence<UInt8>) -> Result<String, Failure> {
        var scalars = String.UnicodeScalarView()
        var iterator = bytes.makeIterator()
        var utf8 = Unicode.UTF8()
        while true {
            switch utf8.decode(&iterator) {
            case let .scalarValue(s):
                if isControlOrFormat(s) { return .failure(.controlCharacter) }
                scalars.append(s)
            case .emptyInput:
                return .success(String(scalars))
            case .error:
                return .failure(.invalidUTF8)
            }
        }
    }

    static func isControlOrFormat(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .control, .format: return true
        default: return false
        }
    }
}
