import SafeText
import Foundation
import NDEF
import RecordOutput

/// `nfctap decode`: an NDEF message from the hex argument, a file or stdin, printed as lines or
/// one JSON object.
package struct DecodeRun {
    package var hex: String?
    package var file: String?
    package var json: Bool
    package var relaxed: Bool

    package init(hex: String?, file: String?, json: Bool, relaxed: Bool) {
        self.hex = hex
        self.file = file
        self.json = json
        self.relaxed = relaxed
    }

    /// Largest input read from a file or stdin: room for a message of `NDEFLimits.default` size as hex.
    package static let maxInputBytes = 4 * NDEFLimits.default.maxMessageBytes

    /// Decodes and prints.
    /// - Throws: `CLIError` (exit 1) for unreadable input or a malformed message.
    package func run() throws(CLIError) {
        do {
            let mode: DecodingMode = relaxed ? .relaxed : .strict
            let message = try NDEFMessage(bytes: try readInput(), mode: mode)
            if json {
                let object = try NDEFJSON.message(message, mode: mode, extraFields: TagSpecificDetails.jsonFields(for: message))
                print(JSONDocument.line(object))
            } else {
                for line in try NDEFText.lines(message, mode: mode) + TagSpecificDetails.lines(for: message) { Stdout.line(line) }
            }
        } catch let error as DecodeInputError {
            throw CLIError(error.description)
        } catch let error as NDEFError {
            throw CLIError(SafeText.escaped(error.description))
        } catch {
            throw CLIError(SafeText.escaped(String(describing: error)))
        }
    }

    private func readInput() throws -> [UInt8] {
        if let hex {
            guard let bytes = [UInt8](hex: hex) else { throw DecodeInputError.invalidHex }
            return bytes
        }
        if let file {
            guard let handle = FileHandle(forReadingAtPath: file) else { throw DecodeInputError.unreadableFile(file) }
            defer { try? handle.close() }
            return try Self.readAll(handle, source: file)
        }
        let data = try Self.readAll(FileHandle.standardInput, source: "stdin")
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw DecodeInputError.noInput }
        if data.allSatisfy({ $0 < 0x80 }), let bytes = [UInt8](hex: text), !bytes.isEmpty { return bytes }
        return data
    }

    /// Reads to the end, refusing more than `maxInputBytes`.
    private static func readAll(_ handle: FileHandle, source: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            let chunk = handle.readData(ofLength: 64 * 1024)
            if chunk.isEmpty { return bytes }
            bytes += chunk
            if bytes.count > maxInputBytes { throw DecodeInputError.tooLarge(source, maxInputBytes) }
        }
    }
}
