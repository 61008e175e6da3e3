import ZebraPrinter

/// One thing to do over a printer link after pairing (`nfctap pair --setvar/--getvar/--status/--test-label`).
public enum PrinterRequest: Equatable, Sendable {
    /// `! U1 setvar "name" "value"`.
    case setVariable(name: String, value: String)
    /// `! U1 getvar "name"`.
    case getVariable(name: String)
    /// `~HS`.
    case hostStatus
    /// Zebra's demo label.
    case testLabel

    /// Checks that the request can be sent (SGD names and values `SGD` accepts), without sending it.
    /// - Throws: `PairingError.invalidPrinterCommand`.
    public func validate() throws {
        switch self {
        case let .setVariable(name, value): _ = try PrinterConversation.command { try SGD.setvar(name, value) }
        case let .getVariable(name): _ = try PrinterConversation.command { try SGD.getvar(name) }
        case .hostStatus, .testLabel: break
        }
    }
}

/// What the printer answered to a `PrinterRequest`.
public enum PrinterReply: Equatable, Sendable {
    /// The setting was sent (SGD setvar has no reply).
    case variableSet(name: String, value: String)
    /// The value the printer reported.
    case variable(name: String, value: String)
    case status(PrinterStatus)
    /// The label was sent (ZPL has no reply).
    case labelSent
}

extension PrinterConversation {
    /// Performs one request.
    /// - Throws: `PairingError` (see the method each request wraps).
    public func perform(_ request: PrinterRequest, timeout: Duration = .seconds(5)) throws -> PrinterReply {
        switch request {
        case let .setVariable(name, value):
            try setVariable(name, to: value)
            return .variableSet(name: name, value: value)
        case let .getVariable(name):
            return .variable(name: name, value: try getVariable(name, timeout: timeout))
        case .hostStatus:
            return .status(try hostStatus(timeout: timeout))
        case .testLabel:
            try printTestLabel()
            return .labelSent
        }
    }
}
