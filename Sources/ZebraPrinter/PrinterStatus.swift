/// A printer's answer to `~HS` (host status), decoded (docs/zebra.md §3).
public struct PrinterStatus: Hashable, Sendable {
    // Line 1: aaa,b,c,dddd,eee,f,g,h,iii,j,k,l
    /// `aaa`: communication settings (a bit-sum the ZPL guide documents).
    public var communicationSettings: Int
    /// `b`
    public var paperOut: Bool
    /// `c`
    public var paused: Bool
    /// `dddd`: label length in dots.
    public var labelLengthDots: Int
    /// `eee`: formats in the receive buffer.
    public var formatsInBuffer: Int
    /// `f`: receive buffer full.
    public var bufferFull: Bool
    /// `g`: communications diagnostics mode.
    public var commDiagnosticsMode: Bool
    /// `h`: a format is partially received.
    public var partialFormat: Bool
    /// `j`
    public var corruptRAM: Bool
    /// `k`
    public var underTemperature: Bool
    /// `l`
    public var overTemperature: Bool

    // Line 2: mmm,n,o,p,q,r,s,t,uuuuuuuu,v,www
    /// `mmm`: function settings (a bit-sum the ZPL guide documents).
    public var functionSettings: Int
    /// `o`: print head up (open).
    public var headUp: Bool
    /// `p`
    public var ribbonOut: Bool
    /// `q`: thermal transfer (true) or direct thermal (false).
    public var thermalTransferMode: Bool
    /// `r`
    public var printMode: PrintMode
    /// `s`
    public var printWidthMode: Int
    /// `t`: a label waits to be taken (peel-off mode).
    public var labelWaiting: Bool
    /// `uuuuuuuu`: labels remaining in the batch.
    public var labelsRemaining: Int
    /// `v`
    public var formatWhilePrinting: Bool
    /// `www`: graphic images stored in memory.
    public var graphicImagesStored: Int

    // Line 3: xxxx,y
    /// `xxxx`: the front-panel password, kept as sent (leading zeros matter).
    public var password: String
    /// `y`
    public var staticRAMInstalled: Bool

    /// Ready to print = not paper out, not paused, not head up, not ribbon out,
    /// not too hot, not too cold (docs/zebra.md §3).
    public var readyToPrint: Bool { problems.isEmpty }

    /// What stops the printer from printing, in a fixed order; empty when ready.
    public var problems: [String] {
        var out: [String] = []
        if paperOut { out.append("paper out") }
        if paused { out.append("paused") }
        if headUp { out.append("head open") }
        if ribbonOut { out.append("ribbon out") }
        if overTemperature { out.append("head too hot") }
        if underTemperature { out.append("head too cold") }
        return out
    }

    /// One line for people: `"ready"` or the problems joined, e.g. `"paper out, paused"`.
    public var summary: String { readyToPrint ? "ready" : problems.joined(separator: ", ") }
}

extension PrinterStatus {
    /// Parses one complete `~HS` reply. CR/LF before, between and after the three frames are
    /// accepted; anything else after the third ETX is an error.
    /// - Throws: ``HostStatusError``; ``HostStatusError/truncated(line:)`` when the bytes end early.
    public init(parsing bytes: [UInt8]) throws {
        var parser = HostStatusParser()
        guard let status = try parser.feed(bytes) else {
            throw HostStatusError.truncated(line: parser.currentLine)
        }
        let extra = parser.pendingBytes.filter { $0 != 0x0D && $0 != 0x0A }.count
        guard extra == 0 else { throw HostStatusError.trailingBytes(count: extra) }
        self = status
    }

    /// Builds a status from the three lines' checked field texts.
    init(fields l: [[String]]) {
        func flag(_ s: String) -> Bool { s == "1" }
        func int(_ s: String) -> Int { Int(s) ?? 0 }  // checked: 1–8 digits, never fails
        communicationSettings = int(l[0][0])
        paperOut = flag(l[0][1])
        paused = flag(l[0][2])
        labelLengthDots = int(l[0][3])
        formatsInBuffer = int(l[0][4])
        bufferFull = flag(l[0][5])
        commDiagnosticsMode = flag(l[0][6])
        partialFormat = flag(l[0][7])
        corruptRAM = flag(l[0][9])
        underTemperature = flag(l[0][10])
        overTemperature = flag(l[0][11])
        functionSettings = int(l[1][0])
        headUp = flag(l[1][2])
        ribbonOut = flag(l[1][3])
        thermalTransferMode = flag(l[1][4])
        printMode = PrintMode(code: Character(l[1][5]))
        printWidthMode = int(l[1][6])
        labelWaiting = flag(l[1][7])
        labelsRemaining = int(l[1][8])
        formatWhilePrinting = flag(l[1][9])
        graphicImagesStored = int(l[1][10])
        password = l[2][0]
        staticRAMInstalled = flag(l[2][1])
    }
}
