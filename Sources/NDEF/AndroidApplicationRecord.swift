/// Android Application Record: external type `android.com:pkg`, payload the package name in UTF-8.
/// Android launches (or offers to install) that application when it reads the tag.
public struct AndroidApplicationRecord: NDEFPayloadCodable {
    public static let typeName = "android.com:pkg"

    public var packageName: String

    public init(packageName: String) {
        self.packageName = packageName
    }

    /// - Throws: `.invalidPayload` for an empty package name, or (strict) invalid UTF-8.
    public init(record: NDEFRecord, mode: DecodingMode = .strict) throws(NDEFError) {
        func fail(_ v: NDEFError.PayloadViolation) -> NDEFError {
            .invalidPayload(recordType: Self.typeName, offset: 0, violation: v)
        }
        guard record.hasType(.external, Self.typeName) else { throw fail(.wrongRecordType(expected: Self.typeName)) }
        guard !record.payload.isEmpty else { throw fail(.empty) }
        do { packageName = try TextDecoding.utf8(record.payload[...], strict: mode == .strict) } catch { throw fail(.invalidUTF8) }
    }

    public func record() -> NDEFRecord {
        NDEFRecord(tnf: .external, type: Array(Self.typeName.utf8), payload: Array(packageName.utf8))
    }
}
