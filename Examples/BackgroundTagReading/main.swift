// Linux scaffolding for TicketActivityHandler: the app `nfctap agent` launches when a tag's URL
// starts with https://example.com/app/ (see nfctap-example-tickets.desktop in this directory).
//
//   BackgroundTagReadingExample [URL]
//
// URL is the `%u` of the desktop entry (the tag's first URL); the whole message comes from
// NFCNDEFMessage.launchPayload() (NFCTAP_NDEF_FILE). Prints `url: …`, `event: …`, `seat: …`.
// Exit status: 0 the ticket was read, 1 not launched for a tag / not a ticket tag (reason on
// stderr), 2 the URL argument differs from the message's first record.
import CoreNFCLinux
import Foundation
@preconcurrency import SwiftGlibc  // Swift 6: `stdout` is a C global; the scaffolding sets it up once, first

setvbuf(stdout, nil, _IOLBF, 0)

func fail(_ text: String, _ status: Int32) -> Never {
    FileHandle.standardError.write(Data("BackgroundTagReadingExample: \(text)\n".utf8))
    exit(status)
}

let message: NFCNDEFMessage
do {
    message = try NFCNDEFMessage.launchPayload()
} catch {
    fail("\(error)", 1)
}

do {
    let (url, ticket) = try TicketActivityHandler().handle(message)
    if CommandLine.arguments.count > 1, CommandLine.arguments[1] != url.absoluteString {
        fail("launched for \(CommandLine.arguments[1]) but the message's URL is \(url.absoluteString)", 2)
    }
    print("url: \(url.absoluteString)")
    print("event: \(ticket.event)")
    print("seat: \(ticket.seat)")
} catch {
    fail("\(error)", 1)
}
