import NDEF

/// Bytes from hex text in a test vector (a malformed literal is a bug in the test).
func h(_ text: String) -> [UInt8] {
    guard let bytes = [UInt8](hex: text) else { fatalError("bad hex literal in test: \(text)") }
    return bytes
}

/// The UTF-8 bytes of `text` as hex, to build readable vectors: `"D1 01 0C 55 04" + a("example.com")`.
func a(_ text: String) -> String {
    " " + Array(text.utf8).hexString(separator: " ") + " "
}

/// Decodes with `mode`, returning the error instead of throwing (for `#expect(… == .some(error))`).
func decodeError(_ bytes: [UInt8], _ mode: DecodingMode = .strict, limits: NDEFLimits = .default) -> NDEFError? {
    do {
        _ = try NDEFMessage(bytes: bytes, mode: mode, limits: limits)
        return nil
    } catch {
        return error
    }
}

/// Parses the single record of `bytes` with `mode`, returning the error if any.
func parseError(_ bytes: [UInt8], _ mode: DecodingMode = .strict) -> NDEFError? {
    do {
        let message = try NDEFMessage(bytes: bytes, mode: mode)
        for record in message.records { _ = try record.parsed(mode: mode) }
        return nil
    } catch {
        return error
    }
}
