// How cross-platform NFC plugins (Flutter, React Native) hand a tag to the script side: every
// NFCTag case becomes a dictionary of its properties, plus the NDEF status and the cached message.
// Only the import differs from iOS (`import CoreNFC` there).
//
// Swift 6: a message map holds Sendable values only (numbers and `Data`), so it can leave the
// `@Sendable` handler that read the message; the tag maps are built on the main actor, where the
// plugin lives.
import CoreNFCLinux

func getNDEFMessageMap(_ message: NFCNDEFMessage) -> [String: any Sendable] {
    return [
        "records": message.records.map { record -> [String: any Sendable] in
            [
                "typeNameFormat": record.typeNameFormat.rawValue,
                "type": record.type,
                "identifier": record.identifier,
                "payload": record.payload,
            ]
        },
    ]
}

func getNDEFMessage(_ map: [String: Any?]) -> NFCNDEFMessage? {
    guard let records = map["records"] as? [[String: Any?]] else { return nil }
    var payloads = [NFCNDEFPayload]()
    for record in records {
        guard let raw = record["typeNameFormat"] as? UInt8, let format = NFCTypeNameFormat(rawValue: raw) else { return nil }
        payloads.append(NFCNDEFPayload(format: format, type: record["type"] as? Data ?? Data(),
                                       identifier: record["identifier"] as? Data ?? Data(),
                                       payload: record["payload"] as? Data ?? Data()))
    }
    return NFCNDEFMessage(records: payloads)
}

func getErrorMap(_ error: Error) -> [String: Any?] {
    if let error = error as? NFCReaderError {
        return ["type": getErrorTypeString(error.code), "code": error.errorCode, "message": error.localizedDescription]
    }
    return ["type": "unknown", "code": (error as NSError).code, "message": error.localizedDescription]
}

func getErrorTypeString(_ code: NFCReaderError.Code) -> String {
    switch code {
    case .readerSessionInvalidationErrorSessionTimeout: return "sessionTimeout"
    case .readerSessionInvalidationErrorSystemIsBusy: return "systemIsBusy"
    case .readerSessionInvalidationErrorUserCanceled: return "userCanceled"
    case .readerSessionInvalidationErrorFirstNDEFTagRead: return "firstTagRead"
    case .readerErrorUnsupportedFeature: return "unsupportedFeature"
    case .ndefReaderSessionErrorZeroLengthMessage: return "zeroLengthMessage"
    default: return "other"
    }
}

@available(iOS 13.0, *)
@MainActor
func getNFCTagMapAsync(_ tag: NFCTag, _ completionHandler: @escaping @MainActor (NFCNDEFTag, [String: Any?], Error?) -> Void) {
    switch tag {
    case let .feliCa(tag):
        var data: [String: Any?] = ["feliCa": ["currentIDm": tag.currentIDm, "currentSystemCode": tag.currentSystemCode]]
        getNDEFTagMapAsync(tag) { ndef, error in
            data["ndef"] = ndef
            completionHandler(tag, data, error)
        }
    case let .iso15693(tag):
        var data: [String: Any?] = ["iso15693": [
            "identifier": tag.identifier, "icManufacturerCode": tag.icManufacturerCode, "icSerialNumber": tag.icSerialNumber,
        ]]
        getNDEFTagMapAsync(tag) { ndef, error in
            data["ndef"] = ndef
            completionHandler(tag, data, error)
        }
    case let .iso7816(tag):
        var data: [String: Any?] = ["iso7816": [
            "identifier": tag.identifier, "initialSelectedAID": tag.initialSelectedAID, "historicalBytes": tag.historicalBytes,
            "applicationData": tag.applicationData, "proprietaryApplicationDataCoding": tag.proprietaryApplicationDataCoding,
        ] as [String: Any?]]
        getNDEFTagMapAsync(tag) { ndef, error in
            data["ndef"] = ndef
            completionHandler(tag, data, error)
        }
    case let .miFare(tag):
        var data: [String: Any?] = ["mifare": [
            "identifier": tag.identifier, "mifareFamily": tag.mifareFamily.rawValue, "historicalBytes": tag.historicalBytes,
        ] as [String: Any?]]
        getNDEFTagMapAsync(tag) { ndef, error in
            data["ndef"] = ndef
            completionHandler(tag, data, error)
        }
    @unknown default:
        print("Unknown tag cannot be serialized")
    }
}

/// The NDEF part: nil when the tag holds no NDEF; an empty tag (403) has no cached message.
@MainActor
func getNDEFTagMapAsync(_ tag: NFCNDEFTag, _ completionHandler: @escaping @MainActor ([String: Any?]?, Error?) -> Void) {
    let readCachedMessage: @MainActor (NFCNDEFStatus, Int) -> Void = { status, capacity in
        tag.readNDEF { message, error in
            let cachedMessage = message.map(getNDEFMessageMap)
            Task { @MainActor in
                if let error = error, (error as? NFCReaderError)?.code != .ndefReaderSessionErrorZeroLengthMessage {
                    completionHandler(nil, error)
                    return
                }
                var data: [String: Any?] = ["isWritable": status == .readWrite, "maxSize": capacity]
                data["cachedMessage"] = cachedMessage
                completionHandler(data, nil)
            }
        }
    }
    tag.queryNDEFStatus { status, capacity, error in
        Task { @MainActor in
            if let error = error {
                completionHandler(nil, error)
                return
            }
            if status == .notSupported {
                completionHandler(nil, nil)
                return
            }
            readCachedMessage(status, capacity)
        }
    }
}
