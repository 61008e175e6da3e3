// The native half of a cross-platform NFC plugin: the script side calls methods by name
// ("Nfc#startSession", "MiFare#sendMiFareCommand", "FeliCa#polling", …) with a dictionary of
// arguments, tags are kept under a handle, and every answer goes back through `result`.
// Only the import differs from iOS (`import CoreNFC` there); `FlutterResult` and the channel are
// the UI framework's.
//
// Swift 6: the plugin is `@MainActor`, as the platform thread Flutter calls it on, and gives the
// session the main queue, so its delegate conformance is `@preconcurrency` (checked at run time).
// Core NFC's completion handlers are `@Sendable`: each hops back to the main actor with the Sendable
// values it got and answers there; `FlutterResult` is a main-actor closure.
import CoreNFCLinux

typealias FlutterResult = @MainActor (Any?) -> Void

struct FlutterError {
    var code: String
    var message: String?
    var details: Any?
}

@available(iOS 13.0, *)
@MainActor
final class NfcTagPlugin: NSObject {
    /// The channel back to the script side: (method, arguments).
    var invokeMethod: (String, Any?) -> Void = { _, _ in }
    private var session: NFCTagReaderSession?
    private var tags: [String: NFCNDEFTag] = [:]

    func handle(_ method: String, _ arguments: [String: Any?], result: @escaping FlutterResult) {
        switch method {
        case "Nfc#isAvailable": result(NFCTagReaderSession.readingAvailable)
        case "Nfc#startSession": handleStartSession(arguments, result: result)
        case "Nfc#stopSession": handleStopSession(arguments, result: result)
        case "Ndef#read": handleNdefRead(arguments, result: result)
        case "Ndef#write": handleNdefWrite(arguments, result: result)
        case "FeliCa#polling": handleFeliCaPolling(arguments, result: result)
        case "FeliCa#requestServiceV2": handleFeliCaRequestServiceV2(arguments, result: result)
        case "Iso15693#getSystemInfo": handleIso15693GetSystemInfo(arguments, result: result)
        case "Iso15693#readMultipleBlocks": handleIso15693ReadMultipleBlocks(arguments, result: result)
        case "Iso7816#sendCommand": handleIso7816SendCommand(arguments, result: result)
        case "Iso7816#sendCommandRaw": handleIso7816SendCommandRaw(arguments, result: result)
        case "MiFare#sendMiFareCommand": handleMiFareSendMiFareCommand(arguments, result: result)
        default: result(FlutterError(code: "not_implemented", message: method, details: nil))
        }
    }

    private func getPollingOption(_ names: [String]) -> NFCTagReaderSession.PollingOption {
        var option = NFCTagReaderSession.PollingOption()
        if names.contains("iso14443") { option.insert(.iso14443) }
        if names.contains("iso15693") { option.insert(.iso15693) }
        if names.contains("iso18092") { option.insert(.iso18092) }
        if names.contains("pace") { option.insert(.pace) }
        return option
    }

    private func getRequestFlags(_ names: [String]) -> RequestFlag {
        var flags = RequestFlag()
        if names.contains("address") { flags.insert(.address) }
        if names.contains("highDataRate") { flags.insert(.highDataRate) }
        if names.contains("select") { flags.insert(.select) }
        return flags
    }

    private func handleStartSession(_ arguments: [String: Any?], result: @escaping FlutterResult) {
        session = NFCTagReaderSession(pollingOption: getPollingOption(arguments["pollingOptions"] as? [String] ?? []), delegate: self, queue: .main)
        if let alertMessage = arguments["alertMessage"] as? String { session?.alertMessage = alertMessage }
        session?.begin()
        result(nil)
    }

    private func handleStopSession(_ arguments: [String: Any?], result: @escaping FlutterResult) {
        guard let session = session else {
            result(nil)
            return
        }
        if let errorMessage = arguments["errorMessage"] as? String {
            session.invalidate(errorMessage: errorMessage)
        } else {
            if let alertMessage = arguments["alertMessage"] as? String { session.alertMessage = alertMessage }
            session.invalidate()
        }
        self.session = nil
        result(nil)
    }

    private func handleNdefRead(_ arguments: [String: Any?], result: @escaping FlutterResult) {
        tagHandler(NFCNDEFTag.self, arguments, result) { tag in
            tag.readNDEF { message, error in
                let messageMap = message.map(getNDEFMessageMap)  // Sendable, unlike the message
                Task { @MainActor in
                    if let error = error { result(FlutterError(code: "io_exception", message: nil, details: getErrorMap(error))) }
                    else { result(messageMap) }
                }
            }
        }
    }

    private func handleNdefWrite(_ arguments: [String: Any?], result: @escaping FlutterResult) {
        tagHandler(NFCNDEFTag.self, arguments, result) { tag in
            guard let message = getNDEFMessage(arguments["message"] as? [String: Any?] ?? [:]) else {
                result(FlutterError(code: "invalid_parameter", message: "message", details: nil))
                return
            }
            tag.writeNDEF(message) { error in
                Task { @MainActor in
                    if let error = error { result(FlutterError(code: "io_exception", message: nil, details: getErrorMap(error))) }
                    else { result(nil) }
                }
            }
        }
    }

    private func handleFeliCaPolling(_ arguments: [String: Any?], result: @escaping FlutterResult) {
        tagHandler(NFCFeliCaTag.self, arguments, result) { tag in
            let requestCode = PollingRequestCode(rawValue: arguments["requestCode"] as? Int ?? 0) ?? .noRequest
            let timeSlot = PollingTimeSlot(rawValue: arguments["timeSlot"] as? Int ?? 0) ?? .max1
            tag.polling(systemCode: arguments["systemCode"] as? Data ?? Data([0xFF, 0xFF]), requestCode: requestCode,
                        timeSlot: timeSlot) { manufacturerParameter, requestData, error in
                Task { @MainActor in
                    if let error = error { result(FlutterError(code: "io_exception", message: nil, details: getErrorMap(error))) }
                    else { result(["manufacturerParameter": manufacturerParameter, "requestData": requestData]) }
                }
            }
        }
    }

    private func handleFeliCaRequestServiceV2(_ arguments: [String: Any?], result: @escaping FlutterResult) {
        tagHandler(NFCFeliCaTag.self, arguments, result) { tag in
            tag.requestServiceV2(nodeCodeList: arguments["nodeCodeList"] as? [Data] ?? []) {
                statusFlag1, statusFlag2, encryptionIdentifier, nodeKeyVersionListAes, nodeKeyVersionListDes, error in
                Task { @MainActor in
                    if let error = error { result(FlutterError(code: "io_exception", message: nil, details: getErrorMap(error))) }
                    else {
                        result(["statusFlag1": statusFlag1, "statusFlag2": statusFlag2, "encryptionIdentifier": encryptionIdentifier.rawValue,
                                "nodeKeyVersionListAes": nodeKeyVersionListAes, "nodeKeyVersionListDes": nodeKeyVersionListDes])
                    }
                }
            }
        }
    }

    private func handleIso15693GetSystemInfo(_ arguments: [String: Any?], result: @escaping FlutterResult) {
        tagHandler(NFCISO15693Tag.self, arguments, result) { tag in
            tag.getSystemInfo(requestFlags: self.getRequestFlags(arguments["requestFlags"] as? [String] ?? [])) {
                dataStorageFormatIdentifier, applicationFamilyIdentifier, blockSize, totalBlocks, icReference, error in
                Task { @MainActor in
                    if let error = error { result(FlutterError(code: "io_exception", message: nil, details: getErrorMap(error))) }
                    else {
                        result(["dataStorageFormatIdentifier": dataStorageFormatIdentifier, "applicationFamilyIdentifier": applicationFamilyIdentifier,
                                "blockSize": blockSize, "totalBlocks": totalBlocks, "icReference": icReference])
                    }
                }
            }
        }
    }

    private func handleIso15693ReadMultipleBlocks(_ arguments: [String: Any?], result: @escaping FlutterResult) {
        tagHandler(NFCISO15693Tag.self, arguments, result) { tag in
            let range = NSMakeRange(arguments["blockNumber"] as? Int ?? 0, arguments["numberOfBlocks"] as? Int ?? 1)
            tag.readMultipleBlocks(requestFlags: self.getRequestFlags(["highDataRate"]), blockRange: range) { dataBlocks, error in
                Task { @MainActor in
                    if let error = error { result(FlutterError(code: "io_exception", message: nil, details: getErrorMap(error))) }
                    else { result(dataBlocks) }
                }
            }
        }
    }

    private func handleIso7816SendCommand(_ arguments: [String: Any?], result: @escaping FlutterResult) {
        tagHandler(NFCISO7816Tag.self, arguments, result) { tag in
            let apdu = NFCISO7816APDU(
                instructionClass: arguments["instructionClass"] as? UInt8 ?? 0,
                instructionCode: arguments["instructionCode"] as? UInt8 ?? 0,
                p1Parameter: arguments["p1Parameter"] as? UInt8 ?? 0,
                p2Parameter: arguments["p2Parameter"] as? UInt8 ?? 0,
                data: arguments["data"] as? Data ?? Data(),
                expectedResponseLength: arguments["expectedResponseLength"] as? Int ?? -1
            )
            tag.sendCommand(apdu: apdu) { payload, statusWord1, statusWord2, error in
                Task { @MainActor in
                    if let error = error { result(FlutterError(code: "io_exception", message: nil, details: getErrorMap(error))) }
                    else { result(["payload": payload, "statusWord1": statusWord1, "statusWord2": statusWord2]) }
                }
            }
        }
    }

    private func handleIso7816SendCommandRaw(_ arguments: [String: Any?], result: @escaping FlutterResult) {
        tagHandler(NFCISO7816Tag.self, arguments, result) { tag in
            guard let apdu = NFCISO7816APDU(data: arguments["data"] as? Data ?? Data()) else {
                result(FlutterError(code: "invalid_parameter", message: "not an APDU", details: nil))
                return
            }
            tag.sendCommand(apdu: apdu) { payload, statusWord1, statusWord2, error in
                Task { @MainActor in
                    if let error = error { result(FlutterError(code: "io_exception", message: nil, details: getErrorMap(error))) }
                    else { result(["payload": payload, "statusWord1": statusWord1, "statusWord2": statusWord2]) }
                }
            }
        }
    }

    private func handleMiFareSendMiFareCommand(_ arguments: [String: Any?], result: @escaping FlutterResult) {
        tagHandler(NFCMiFareTag.self, arguments, result) { tag in
            tag.sendMiFareCommand(commandPacket: arguments["commandPacket"] as? Data ?? Data()) { data, error in
                Task { @MainActor in
                    if let error = error { result(FlutterError(code: "io_exception", message: nil, details: getErrorMap(error))) }
                    else { result(data) }
                }
            }
        }
    }

    private func tagHandler<T>(_ dump: T.Type, _ arguments: [String: Any?], _ result: FlutterResult, callback: (T) -> Void) {
        if let handle = arguments["handle"] as? String, let tag = tags[handle] as? T {
            callback(tag)
        } else {
            result(FlutterError(code: "invalid_parameter", message: "Tag is not found", details: nil))
        }
    }
}

@available(iOS 13.0, *)
extension NfcTagPlugin: @preconcurrency NFCTagReaderSessionDelegate {
    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {
        invokeMethod("onActive", nil)
    }

    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: Error) {
        invokeMethod("onError", getErrorMap(error))
    }

    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
        let handle = NSUUID().uuidString
        let didConnect: @MainActor (Error?) -> Void = { error in
            if let error = error {
                self.invokeMethod("onError", getErrorMap(error))
                return
            }
            getNFCTagMapAsync(tags.first!) { tag, data, error in
                if let error = error {
                    self.invokeMethod("onError", getErrorMap(error))
                    return
                }
                self.tags[handle] = tag
                self.invokeMethod("onDiscovered", data.merging(["handle": handle]) { current, _ in current })
            }
        }
        session.connect(to: tags.first!) { error in
            Task { @MainActor in didConnect(error) }
        }
    }
}
