import ArgumentParser
import Foundation
import NDEF
import NFCTapKit
import ZebraPrinter

/// `nfctap decode`: decodes an NDEF message given as hex, a binary file, or stdin.
struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode an NDEF message given as hex, a file or stdin.",
        discussion: """
            Input: the hex argument, or --file (raw binary NDEF), or else stdin. Stdin is read as hex
            text when, after trimming whitespace, it is not empty and all of it is hex digits with
            optional separators (space, tab, newline, ':', '-', ',') and a leading 0x; otherwise it
            is read as binary. (A message whose first record has MB set starts with a byte of 0x80
            or more, which is never hex text, so the rule cannot misread such a message.)

            Output: one line per record on stdout, or with --json one JSON object:
            {"records":[{"tnf":1,"type":"U","id":"","payload":"04…","uri":"https://…"}]}.
            type and id are text when printable ASCII, else hex with "typeFormat"/"idFormat":"hex".

            Strict by default: any breach of NFC Forum NDEF or the record type definitions is an
            error. --relaxed reads like a tag reader (missing MB/ME, trailing bytes, unknown URI
            codes are accepted; payload errors are reported per record).
            Errors go to stderr as "nfctap: error: …" with exit code 1.
            """)

    @Argument(help: "NDEF message as hex, e.g. D1010C55046578616D706C652E636F6D")
    var hex: String?

    @Option(name: .long, help: "Read the NDEF message from a binary file.")
    var file: String?

    @Flag(name: .long, help: "Print one JSON object instead of text lines.")
    var json = false

    @Flag(name: .long, help: "Accept what real tags hold (see above) instead of strict decoding.")
    var relaxed = false

    /// Largest input read from a file or stdin: room for a message of `NDEFLimits.default` size as hex.
    static let maxInputBytes = 4 * NDEFLimits.default.maxMessageBytes

    func validate() throws {
        if hex != nil && file != nil { throw ValidationError("give either a hex argument or --file, not both") }
    }

    func run() throws {
        do {
            let mode: DecodingMode = relaxed ? .relaxed : .strict
            let message = try NDEFMessage(bytes: try readInput(), mode: mode)
            if json {
                let object = try NDEFJSON.message(message, mode: mode, extraFields: TagSpecificDetails.jsonFields(for: message))
                print(JSONDocument.line(object))
            } else {
                for line in try NDEFText.lines(message, mode: mode) + TagSpecificDetails.lines(for: message) { print(line) }
            }
        } catch let error as DecodeInputError {
            throw CLIError(error.description)
        } catch let error as NDEFError {
            throw CLIError(NDEFText.safe(error.description))
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

/// Why `decode` could not get its input bytes.
enum DecodeInputError: Error, CustomStringConvertible {
    case invalidHex
    case unreadableFile(String)
    case noInput
    case tooLarge(String, Int)

    var description: String {
        switch self {
        case .invalidHex: return "the argument is not hex (pairs of 0-9 A-F, optional spaces or colons)"
        case let .unreadableFile(path): return "cannot read \(NDEFText.safe(path))"
        case .noInput: return "no input: give hex, --file, or NDEF bytes on stdin"
        case let .tooLarge(source, limit): return "\(NDEFText.safe(source)) is larger than \(limit) bytes"
        }
    }
}
