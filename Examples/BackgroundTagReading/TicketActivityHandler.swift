import CoreNFCLinux
import Foundation

/// The part of "Adding Support for Background Tag Reading" an app writes: given the message the
/// system read in the background, check that its first record is the app's URL, then decode the
/// JSON payload record that follows it. On iOS the message comes from
/// `userActivity.ndefMessagePayload`; on Linux from `NFCNDEFMessage.launchPayload()`.
struct TicketActivityHandler {
    /// What the tag describes (the JSON record).
    struct Ticket: Decodable, Equatable {
        var event: String
        var seat: String
    }

    enum Failure: Error, CustomStringConvertible {
        case noURIRecord
        case notOurURL(String)
        case noJSONRecord
        case badJSON(String)

        var description: String {
            switch self {
            case .noURIRecord: return "the first record is not a URI record"
            case let .notOurURL(url): return "\(url) is not one of this app's links"
            case .noJSONRecord: return "no application/json record follows the URI record"
            case let .badJSON(reason): return "the JSON record cannot be read: \(reason)"
            }
        }
    }

    /// The prefix this app claims (its desktop entry's `X-NFC-URL-Prefixes`).
    static let appURLPrefix = "https://example.com/app/"

    /// Mirrors `application(_:continue:restorationHandler:)`: the URL, then the payload.
    func handle(_ message: NFCNDEFMessage) throws -> (url: URL, ticket: Ticket) {
        guard let first = message.records.first, first.typeNameFormat != .empty,
              let url = first.wellKnownTypeURIPayload() else { throw Failure.noURIRecord }
        guard url.absoluteString.hasPrefix(Self.appURLPrefix) else { throw Failure.notOurURL(url.absoluteString) }
        guard let record = message.records.dropFirst().first(where: {
            $0.typeNameFormat == .media && String(decoding: $0.type, as: UTF8.self) == "application/json"
        }) else { throw Failure.noJSONRecord }
        do {
            return (url, try JSONDecoder().decode(Ticket.self, from: record.payload))
        } catch {
            throw Failure.badJSON("\(error)")
        }
    }
}
