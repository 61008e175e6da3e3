import Foundation
import NDEF
import NFCTags
import PCSC
import TagEmulation
import Testing

extension PCSCSystemTests {
    /// Ring 3: two more published iOS styles, compiled with only `import CoreNFCLinux`: a
    /// passport-reader-style ISO 7816 reader (async `sendCommand`, GET CHALLENGE, READ BINARY
    /// chained by offset) and the native half of a cross-platform plugin (a method dispatcher over
    /// every `NFCTag` case, tags serialised to dictionaries), run against virtual tags on pcscd.
    @Suite("Ported passport-reader and plugin examples on pcscd + vpcd")
    struct PortedPluginExamplesOverPCSC {
        let port0 = TestPCSCD.port0

        init() throws {
            try TestPCSCD.control("start")
            try TestPCSCD.waitUntilReadersAreEmpty()
        }

        /// The JSON a `TagInfoPluginExample` line carries after `name: `.
        func json(_ stdout: String, _ name: String) -> Any? {
            guard let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix("\(name): ") }) else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(line.dropFirst(name.count + 2).utf8), options: [.fragmentsAllowed])
        }

        private func hex(_ bytes: [UInt8]) -> String { bytes.hexString }

        // MARK: Passport-reader style: async sendCommand, chained READ BINARY

        @Test("chained-APDU example: GET CHALLENGE answered 6D 00 means no access control; the CC and the URI are read")
        func chainedReadsURI() throws {
            let example = try ExampleProcess("ChainedAPDUExample")
            example.waitUntilActive()
            let card = try VPCDTag(try ExampleFixtures.type4(uri: "https://example.com/doc"), port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            let lines = example.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains("SELECT application 00A40400 Le 256: SW 90 00, 0 bytes"))
            #expect(lines.contains("GET CHALLENGE 00840000 Le 8: SW 6D 00, 0 bytes"))
            #expect(lines.contains("Challenge: none (no access control)"))
            // CCLEN 000F, mapping 2.0, MLe 00F6, MLc 00F6, NDEF file E104 of 0800 bytes, read/write 00 00.
            #expect(lines.contains("CC: 000F2000F600F60406E10408000000"))
            #expect(lines.last == "URI: https://example.com/doc")
            #expect(example.stderr.contains("Document read."))
        }

        @Test("chained-APDU example reads a 600-byte file in READ BINARY of the asked size, offsets chained")
        func chainedReadsInChunks() throws {
            let example = try ExampleProcess("ChainedAPDUExample", ["--chunk", "16"])
            example.waitUntilActive()
            let card = try VPCDTag(VirtualType4Tag.largeMessage(size: 600), port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            let bodyReads = example.stdout.split(separator: "\n").filter { $0.hasPrefix("READ BINARY 00B0") && !$0.contains("Le 2:") }
            // The CC (15 bytes, one read) then 600 bytes from offset 2: 37 × 16 + 8.
            #expect(bodyReads.count == 1 + 38)
            #expect(bodyReads.dropFirst().dropLast().allSatisfy { $0.contains("Le 16: SW 90 00, 16 bytes") })
            #expect(bodyReads.last?.hasPrefix("READ BINARY 00B00252 Le 8: SW 90 00, 8 bytes") == true)  // offset 2 + 592
            #expect(example.stdout.contains("NDEF file: 600 bytes in 41 READ BINARY\n"))  // + CCLEN, NLEN
            #expect(example.stdout.hasSuffix("Record TNF 2, 581 bytes\n"))
        }

        @Test("chained-APDU example refuses an Ultralight tag (.miFare) with the reader's own error, exit 1")
        func chainedRefusesMiFare() throws {
            let example = try ExampleProcess("ChainedAPDUExample")
            example.waitUntilActive()
            let card = try VPCDTag(try ExampleFixtures.ntag213(uri: "https://example.com/u", text: "u"), port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 1)
            #expect(example.stdout == "Session active\nFailed: Tag not valid.\n")
            #expect(example.stderr.contains("Tag not valid."))
        }

        // MARK: Cross-platform plugin: dispatcher, tag maps

        @Test("plugin example serialises an NTAG213 as .miFare with its NDEF, answers READ 30 04, refuses FeliCa and ISO 7816 calls")
        func pluginMiFare() throws {
            let tag = try ExampleFixtures.ntag213(uri: "https://example.com/p", text: "Plugin")
            let example = try ExampleProcess("TagInfoPluginExample", [
                "--call", "MiFare#sendMiFareCommand commandPacket=x:3004",
                "--call", "FeliCa#polling systemCode=x:FFFF requestCode=i:1",
                "--call", "Iso7816#sendCommandRaw data=x:00A4040007D2760000850101",
            ])
            example.waitUntilActive()
            let card = try VPCDTag(tag, port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            let discovered = try #require(json(example.stdout, "onDiscovered") as? [String: Any])
            let mifare = try #require(discovered["mifare"] as? [String: Any])
            #expect(mifare["identifier"] as? String == hex(VirtualType2Tag.defaultUID))
            #expect(mifare["mifareFamily"] as? Int == 2)
            #expect(mifare["historicalBytes"] is NSNull)
            let ndef = try #require(discovered["ndef"] as? [String: Any])
            #expect(ndef["isWritable"] as? Bool == true && ndef["maxSize"] as? Int == 137)
            let records = try #require((ndef["cachedMessage"] as? [String: Any])?["records"] as? [[String: Any]])
            #expect(records.map { $0["typeNameFormat"] as? Int } == [1, 1])
            #expect(records.map { $0["type"] as? String } == ["55", "54"])  // "U", "T"
            #expect(json(example.stdout, "MiFare#sendMiFareCommand") as? String == hex(Array(tag.memory[16..<32])))
            let notFeliCa = try #require(json(example.stdout, "FeliCa#polling") as? [String: Any])
            #expect(notFeliCa["error"] as? String == "invalid_parameter" && notFeliCa["message"] as? String == "Tag is not found")
            #expect((json(example.stdout, "Iso7816#sendCommandRaw") as? [String: Any])?["error"] as? String == "invalid_parameter")
            let ended = try #require(json(example.stdout, "onError") as? [String: Any])
            #expect(ended["code"] as? Int == 200 && ended["type"] as? String == "userCanceled")
        }

        @Test("plugin example serialises a Type 4 card as .iso7816 and sends raw and built APDUs; status words are results")
        func pluginISO7816() throws {
            let tag = try ExampleFixtures.type4(uri: "https://example.com/p4")
            let example = try ExampleProcess("TagInfoPluginExample", [
                "--call", "Iso7816#sendCommandRaw data=x:00A4040007D2760000850101",
                "--call", "Iso7816#sendCommand instructionClass=u8:00 instructionCode=u8:84 p1Parameter=u8:00 p2Parameter=u8:00 expectedResponseLength=i:8",
                "--call", "Iso15693#getSystemInfo requestFlags=address,highDataRate",
                "--call", "Ndef#read",
            ])
            example.waitUntilActive()
            let card = try VPCDTag(tag, port: port0).insert()
            defer { card.remove() }
            #expect(example.finish() == 0)
            let discovered = try #require(json(example.stdout, "onDiscovered") as? [String: Any])
            let iso7816 = try #require(discovered["iso7816"] as? [String: Any])
            #expect(iso7816["identifier"] as? String == hex(tag.uid))
            #expect(iso7816["historicalBytes"] as? String == hex(tag.historicalBytes))
            #expect(iso7816["applicationData"] is NSNull)
            #expect(iso7816["proprietaryApplicationDataCoding"] as? Bool == false)
            #expect(discovered["mifare"] == nil)
            let select = try #require(json(example.stdout, "Iso7816#sendCommandRaw") as? [String: Any])
            #expect(select["statusWord1"] as? Int == 0x90 && select["statusWord2"] as? Int == 0x00 && select["payload"] as? String == "")
            let challenge = try #require(json(example.stdout, "Iso7816#sendCommand") as? [String: Any])
            #expect(challenge["statusWord1"] as? Int == 0x6D && challenge["statusWord2"] as? Int == 0x00)
            #expect((json(example.stdout, "Iso15693#getSystemInfo") as? [String: Any])?["error"] as? String == "invalid_parameter")
            let read = try #require(json(example.stdout, "Ndef#read") as? [String: Any])
            let uriPayload = try #require((read["records"] as? [[String: Any]])?.first?["payload"] as? String)
            #expect(uriPayload == hex([0x04] + Array("example.com/p4".utf8)))  // URI prefix code 04: "https://"
        }

        @Test("plugin example polling ISO 15693 only: the session polls, no ISO 14443 tag is discovered, it ends at its time limit, exit 1")
        func pluginISO15693Only() throws {
            let example = try ExampleProcess("TagInfoPluginExample", ["--poll", "iso15693", "--time-limit", "2"])
            #expect(example.finish() == 1)
            #expect(json(example.stdout, "onDiscovered") == nil)
            let ended = try #require(json(example.stdout, "onError") as? [String: Any])
            #expect(ended["code"] as? Int == 201)
        }
    }
}
