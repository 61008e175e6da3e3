import ArgumentParser
import NDEF

struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Decode an NDEF message given as hex, a file or stdin.")
    @Argument(help: "NDEF message as hex, e.g. D1010B55016578616D706C652E636F6D") var hex: String?
    func run() throws {
        guard let hex, let bytes = [UInt8](hex: hex) else { throw ValidationError("give NDEF as hex") }
        print(bytes.hexString)
    }
}
