import ArgumentParser
import Foundation
import NFCTapKit

/// `nfctap readers`: the PC/SC readers attached now, the configured libnfc devices
/// (`libnfc:<connstring>`), and the tag on each.
///
/// Exit codes: 0 with at least one reader; 3 when pcscd is not running and no libnfc device
/// opens (message with the fix on stderr) or when no reader is attached (an empty list on stdout,
/// a message on stderr).
struct Readers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "readers",
        abstract: "List the NFC readers and the tag on each.",
        discussion: """
            PC/SC readers come from pcscd; libnfc devices when named in LIBNFC_DEVICE or \
            /etc/nfc/libnfc.conf (device.connstring) or as --reader libnfc:<connstring>, listed as \
            libnfc:<connstring>. --reader lists only the readers it names (a part of several names is \
            refused, exit 3). With --json, stdout is one JSON array: [{"schemaVersion", "name", "backend", "feedback", \
            "tag": null or {"technology", "atr", "uid", and "atqa", "sak" where the backend knows them (libnfc)}}], \
            keys in that order (bytes as upper-case hex); an ISO 15693 tag adds "iso15693": {"manufacturerCode", \
            "manufacturer", "product", "blockSize", "blockCount", "icReference", "dsfid", "afi"}, each only when the \
            UID or Get System Info gives it; a FeliCa card (technology "felica", uid = IDm) adds \
            "pmm", "systemCode" and "product" when the reader polled them (libnfc); a MIFARE Classic adds \
            "product" and "mifareClassic": {"layout", "sectors", "mad": null or {"version", "applications": \
            [{"aid", "sectors"}]}} (the MAD read with its public key; null: no NDEF). --explain adds, under each \
            tag, what its ATR says (PC/SC Part 3 storage-card fields, and the matching entries of pcsc-tools' \
            /usr/share/pcsc/smartcard_list.txt when installed); with --json as "explanation", an array of \
            those lines. Exit 3 when no reader can be \
            listed (pcscd not running and no libnfc device) or none is attached (then the list is empty).
            """)

    @Flag(help: "Print one JSON array on stdout.") var json = false
    @Flag(help: "Explain each tag's ATR (PC/SC Part 3 fields; pcsc-tools' smartcard_list.txt when installed).")
    var explain = false

    @OptionGroup var readerOptions: ReaderOptions

    func run() async throws {
        if readerOptions.trace { CommandTrace.start() }
        try ReaderListing.run(queries: readerOptions.readers, libnfcDevices: readerOptions.libnfcDevices, json: json, explain: explain)
    }
}
