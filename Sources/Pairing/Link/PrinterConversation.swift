/// Byte-level exchanges with a printer over any `PrinterLink`. Replies come back raw (the `~HS`
/// and SGD parsers live in ZebraPrinter).
public struct PrinterConversation {
    public let link: PrinterLink

    public init(link: PrinterLink) {
        self.link = link
    }

    /// Prints Zebra's demo test label (no reply expected).
    public func printTestLabel() throws {
        try link.send(PrinterCommands.testLabel)
    }

    /// Sends `~HS` and returns the raw three-line reply, reassembled.
    /// - Throws: `PairingError.replyTimeout` if the third line does not arrive.
    public func hostStatus(timeout: Duration = .seconds(5)) throws -> [UInt8] {
        try exchange(PrinterCommands.hostStatus, until: PrinterCommands.isCompleteHostStatus, timeout: timeout)
    }

    /// Sends `! U1 getvar "name"` and returns the raw reply (the value in double quotes).
    /// - Throws: `.invalidPrinterCommand` for a name with quotes or line breaks; `.replyTimeout`.
    public func getVariable(_ name: String, timeout: Duration = .seconds(5)) throws -> [UInt8] {
        try exchange(try PrinterCommands.getVariable(name), until: PrinterCommands.isCompleteSGDReply, timeout: timeout)
    }

    /// Sends `! U1 setvar "name" "value"` (the printer does not answer).
    public func setVariable(_ name: String, to value: String) throws {
        try link.send(try PrinterCommands.setVariable(name, value))
    }

    /// Sends bytes and collects the reply until `isComplete`.
    public func exchange(_ bytes: [UInt8], until isComplete: ([UInt8]) -> Bool, timeout: Duration) throws -> [UInt8] {
        try link.send(bytes)
        return try link.receive(until: isComplete, timeout: timeout)
    }
}
