import ZebraPrinter

/// Exchanges with a printer over any `PrinterLink`, built from ZebraPrinter's `ZPL` and `SGD`
/// commands; replies come back parsed (`PrinterStatus`, SGD values).
public struct PrinterConversation {
    public let link: PrinterLink

    public init(link: PrinterLink) {
        self.link = link
    }

    /// Sends Zebra's demo test label (`ZPL.testLabel`; no reply expected).
    public func printTestLabel() throws {
        try link.send(ZPL.testLabel)
    }

    /// Sends `~HS` and parses the three-line reply, reassembled from however many pieces it
    /// arrives in (`HostStatusReply.isComplete` decides when it is whole).
    /// - Throws: `PairingError.replyTimeout` when the reply stays incomplete;
    ///   `.malformedStatus` when it is complete but not a valid `~HS` reply.
    public func hostStatus(timeout: Duration = .seconds(5)) throws -> PrinterStatus {
        let reply = try exchange(ZPL.hostStatusRequest, until: HostStatusReply.isComplete, timeout: timeout)
        do {
            return try PrinterStatus(parsing: reply)
        } catch let error as HostStatusError {
            throw PairingError.malformedStatus(error)
        }
    }

    /// Sends `! U1 getvar "name"` and returns the value the printer answers (without quotes).
    /// - Throws: `PairingError.invalidPrinterCommand` for a name `SGD.getvar` refuses (nothing is
    ///   sent); `.replyTimeout`; `.sgdReply` when the printer does not know the setting (`"?"`)
    ///   or the reply is not one quoted value.
    public func getVariable(_ name: String, timeout: Duration = .seconds(5)) throws -> String {
        let reply = try exchange(try Self.command { try SGD.getvar(name) }, until: Self.isCompleteSGDReply, timeout: timeout)
        do {
            return try SGD.parseValue(reply)
        } catch let error as SGDError {
            throw PairingError.sgdReply(name: name, error)
        }
    }

    /// Sends `! U1 setvar "name" "value"` (the printer does not answer).
    /// - Throws: `PairingError.invalidPrinterCommand` for a name or value `SGD.setvar` refuses
    ///   (a quote, a line break, non-ASCII: nothing is sent); link errors.
    public func setVariable(_ name: String, to value: String) throws {
        try link.send(try Self.command { try SGD.setvar(name, value) })
    }

    /// Sends bytes and collects the reply until `isComplete`.
    public func exchange(_ bytes: [UInt8], until isComplete: ([UInt8]) -> Bool, timeout: Duration) throws -> [UInt8] {
        try link.send(bytes)
        return try link.receive(until: isComplete, timeout: timeout)
    }

    /// An SGD reply is whole once `SGD.parseValue` stops asking for more bytes (it has the
    /// closing quote, or can never become a value).
    static func isCompleteSGDReply(_ bytes: [UInt8]) -> Bool {
        do {
            _ = try SGD.parseValue(bytes)
            return true
        } catch SGDError.incompleteReply {
            return false
        } catch {
            return true
        }
    }

    /// Builds an SGD command, turning `SGDError` into `PairingError.invalidPrinterCommand`.
    static func command(_ build: () throws -> [UInt8]) throws -> [UInt8] {
        do {
            return try build()
        } catch let error as SGDError {
            throw PairingError.invalidPrinterCommand(error)
        }
    }
}
