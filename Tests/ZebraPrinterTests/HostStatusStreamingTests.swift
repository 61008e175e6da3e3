import Testing
@testable import ZebraPrinter

@Suite("~HS host status: reassembly from chunks")
struct HostStatusStreamingTests {
    /// Index of the third ETX: the status is complete once it is fed.
    static let lastETX = 79

    @Test func lastETXIsWhereWeThinkItIs() {
        #expect(zq630Reply[Self.lastETX] == 0x03)
        #expect(zq630Reply.filter { $0 == 0x03 }.count == 3)
    }

    @Test func splitAtEveryPosition() throws {
        let expected = try PrinterStatus(parsing: zq630Reply)
        for cut in 0...zq630Reply.count {
            var parser = HostStatusParser()
            let first = try parser.feed(Array(zq630Reply[..<cut]))
            let second = try parser.feed(Array(zq630Reply[cut...]))
            if cut > Self.lastETX {
                #expect(first == expected, "cut \(cut)")
                #expect(second == nil, "cut \(cut)")
            } else {
                #expect(first == nil, "cut \(cut)")
                #expect(second == expected, "cut \(cut)")
            }
            #expect(parser.isIdle, "cut \(cut)")
        }
    }

    @Test func oneByteAtATime() throws {
        let expected = try PrinterStatus(parsing: zq630Reply)
        var parser = HostStatusParser()
        var completions: [Int] = []
        for (i, b) in zq630Reply.enumerated() {
            if let status = try parser.feed([b]) {
                #expect(status == expected)
                completions.append(i)
            }
        }
        #expect(completions == [Self.lastETX])
        #expect(parser.isIdle)
    }

    /// BLE at the default MTU delivers 20-byte indications.
    @Test func indicationSizedChunks() throws {
        let expected = try PrinterStatus(parsing: zq630Reply)
        var parser = HostStatusParser()
        var results: [PrinterStatus?] = []
        for chunk in ZebraBLE.chunks(zq630Reply, mtu: 23) {
            results.append(try parser.feed(chunk))
        }
        // 20+20+20+20+2: the fourth chunk ends exactly on the third ETX (index 79); the last holds CR LF.
        #expect(results == [nil, nil, nil, expected, nil])
    }

    /// Every prefix short of the third ETX is incomplete (nil, never an error, never a status);
    /// the one-shot parser calls it truncated at the right line.
    @Test func truncatedAtEveryLength() throws {
        let expected = try PrinterStatus(parsing: zq630Reply)
        for n in 0..<zq630Reply.count {
            let prefix = Array(zq630Reply[..<n])
            var parser = HostStatusParser()
            let result = try parser.feed(prefix)
            if n > Self.lastETX {
                #expect(result == expected, "length \(n)")
                #expect(try PrinterStatus(parsing: prefix) == expected)
                #expect(HostStatusReply.isComplete(prefix))
            } else {
                #expect(result == nil, "length \(n)")
                let line = prefix.filter { $0 == 0x03 }.count + 1
                #expect(throws: HostStatusError.truncated(line: line)) { try PrinterStatus(parsing: prefix) }
                #expect(!HostStatusReply.isComplete(prefix), "length \(n)")
                #expect(!parser.isIdle || n == 0, "length \(n)")
            }
        }
    }

    @Test func twoRepliesInOneChunk() throws {
        let first = try PrinterStatus(parsing: zq630Reply)
        let second = try PrinterStatus(parsing: readyReply)
        var parser = HostStatusParser()
        #expect(try parser.feed(zq630Reply + readyReply) == first)
        #expect(!parser.isIdle)
        #expect(try parser.feed([]) == second)
        #expect(parser.isIdle)
        #expect(try parser.feed([]) == nil)
    }

    @Test func consecutiveRepliesReuseTheParser() throws {
        var parser = HostStatusParser()
        #expect(try parser.feed(zq630Reply) == (try PrinterStatus(parsing: zq630Reply)))
        #expect(try parser.feed(Array(readyReply[..<50])) == nil)
        #expect(try parser.feed(Array(readyReply[50...])) == (try PrinterStatus(parsing: readyReply)))
    }

    @Test func errorResetsTheParser() throws {
        var parser = HostStatusParser()
        #expect(try parser.feed(Array(zq630Reply[..<20])) == nil)
        #expect(throws: HostStatusError.missingETX(line: 1, found: 0x0A)) { try parser.feed([0x0A]) }
        #expect(parser.isIdle)
        #expect(try parser.feed(readyReply) == (try PrinterStatus(parsing: readyReply)))
    }

    @Test func badFirstLineFailsBeforeTheRestArrives() {
        var parser = HostStatusParser()
        let badLine: [UInt8] = [0x02] + Array("159,1,0,0249,000,0,0,0,000,0,0".utf8) + [0x03]
        #expect(throws: HostStatusError.wrongFieldCount(line: 1, expected: 12, found: 11)) { try parser.feed(badLine) }
        #expect(HostStatusReply.isComplete(badLine))
    }

    @Test func growingReplyIsBoundedAcrossChunks() throws {
        var parser = HostStatusParser()
        #expect(try parser.feed([0x02]) == nil)
        var thrown: HostStatusError?
        var fed = 1
        while thrown == nil, fed < 10_000 {
            do {
                _ = try parser.feed([UInt8](repeating: 0x31, count: 10))
                fed += 10
            } catch let e as HostStatusError {
                thrown = e
            }
        }
        #expect(thrown == .replyTooLong(limit: HostStatusParser.maxReplyLength))
        #expect(fed <= HostStatusParser.maxReplyLength)
    }
}
