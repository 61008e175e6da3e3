import Foundation
import NFCTags
import TagEmulation
import Testing

// Ring 3, issue 28 item 2: `readers --json` reports an ISO 15693 tag's maker, chip, memory and IC
// reference from its UID and one Get System Info, through pcscd + vpcd; what the tag or reader does
// not give is left out (docs/json-output.md).
extension PCSCSystemTests {
    @Suite("readers --json: ISO 15693 (Type 5) details")
    struct Type5ReadersJSONTests {
        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        static let session: [[UInt8]] = [[0xFF, 0xC2, 0x00, 0x00, 0x02, 0x81, 0x00], [0xFF, 0xC2, 0x00, 0x02, 0x04, 0x8F, 0x02, 0x02, 0x03]]
        static let endSession: [UInt8] = [0xFF, 0xC2, 0x00, 0x00, 0x02, 0x82, 0x00]

        /// `readers --json` with `tag` behind `profile`: the tag's `iso15693` object as printed, and
        /// the APDUs the reader received.
        static func listed(_ tag: VirtualISO15693Tag, profile: PCSCReaderProfile) throws -> (json: String, apdus: [[UInt8]]) {
            let reader = EmulatedPCSCReader(profile: profile, tag: tag)
            let onReader = try TagOnReader(tag, personality: reader)
            try TestPCSCD.waitUntilCardIsPresent(TestPCSCD.reader0)
            let run = try runCLI(["readers", "--json", "--reader", TestPCSCD.reader0])
            onReader.remove()
            try TestPCSCD.waitUntilReaderIsEmpty(TestPCSCD.reader0)
            #expect(run.status == 0, "\(run.stderr)")
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
            let found = try #require(entries.first?["tag"] as? [String: Any])
            #expect(found["technology"] as? String == "type5" && found["uid"] as? String == tag.uid.hexString)
            let object = try #require(run.stdout.range(of: #""iso15693":\{[^}]*\}"#, options: .regularExpression), "\(run.stdout)")
            return (String(run.stdout[object]), reader.plan.log)
        }

        @Test("SLIX2 (the Flipper dump), ST25DV04K, Tag-it HF-I Plus through the transparent exchange: every field, 5 APDUs")
        func transparentExchange() throws {
            let cases: [(VirtualISO15693Tag, String)] = [
                (.flipperSLIX2Dump(),
                 #""iso15693":{"manufacturerCode":4,"manufacturer":"NXP Semiconductors","product":"ICODE SLIX2","blockSize":4,"blockCount":80,"icReference":1,"dsfid":1,"afi":61}"#),
                (.formatted(.st25dv04k, uid: VirtualISO15693Tag.exampleUID(.st25dv04k)),
                 #""iso15693":{"manufacturerCode":2,"manufacturer":"STMicroelectronics","product":"ST25DV04K","blockSize":4,"blockCount":128,"icReference":36,"dsfid":0,"afi":0}"#),
                // The Tag-it HF-I Plus reports no IC reference: the key is left out.
                (.formatted(.tagItHFIPlus, uid: VirtualISO15693Tag.exampleUID(.tagItHFIPlus)),
                 #""iso15693":{"manufacturerCode":7,"manufacturer":"Texas Instruments","product":"Tag-it HF-I Plus","blockSize":4,"blockCount":64,"dsfid":0,"afi":0}"#),
            ]
            for (tag, expected) in cases {
                let (json, apdus) = try Self.listed(tag, profile: .omnikey)
                #expect(json == expected)
                // GET DATA (UID), session start + switch to ISO 15693, Get System Info, session end.
                let systemInfo: [UInt8] = [0x22, 0x2B] + tag.uid.reversed()
                let frame: [UInt8] = [0xFF, 0xC2, 0x00, 0x01, UInt8(systemInfo.count + 2), 0x95, UInt8(systemInfo.count)] + systemInfo + [0x00]
                let expectedAPDUs: [[UInt8]] = [[0xFF, 0xCA, 0x00, 0x00, 0x00]] + Self.session + [frame, Self.endSession]
                #expect(apdus == expectedAPDUs, "\(apdus.map { $0.hexString(separator: " ") })")
                #expect(tag.commandLog == [0x2B])
            }
        }

        @Test("a reader refusing FF C2: only what the UID tells (no Get System Info, nothing guessed), 2 APDUs")
        func blockAccessReader() throws {
            let slix2 = VirtualISO15693Tag.flipperSLIX2Dump()
            let (json, apdus) = try Self.listed(slix2, profile: .generic)
            #expect(json == #""iso15693":{"manufacturerCode":4,"manufacturer":"NXP Semiconductors","product":"ICODE SLIX2"}"#)
            #expect(apdus == [[0xFF, 0xCA, 0x00, 0x00, 0x00], Self.session[0]], "\(apdus.map { $0.hexString(separator: " ") })")
            // An ST chip is told by its IC reference only: without Get System Info, no product.
            let st = VirtualISO15693Tag.formatted(.st25dv04k, uid: VirtualISO15693Tag.exampleUID(.st25dv04k))
            #expect(try Self.listed(st, profile: .generic).json == #""iso15693":{"manufacturerCode":2,"manufacturer":"STMicroelectronics"}"#)
            #expect(slix2.commandLog.isEmpty && st.commandLog.isEmpty)
        }
    }
}
