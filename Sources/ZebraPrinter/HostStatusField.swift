/// Every field of a `~HS` reply, by line, in order (docs/zebra.md §3; ZPL II guide, `~HS`).
/// Used to say exactly which field of which line is wrong in a ``HostStatusError``.
public enum HostStatusField: String, Hashable, Sendable, CaseIterable {
    // Line 1: aaa,b,c,dddd,eee,f,g,h,iii,j,k,l
    case communicationSettings, paperOut, paused, labelLength, formatsInBuffer, bufferFull,
         commDiagnosticsMode, partialFormat, unusedLine1, corruptRAM, underTemperature, overTemperature
    // Line 2: mmm,n,o,p,q,r,s,t,uuuuuuuu,v,www
    case functionSettings, unusedLine2, headUp, ribbonOut, thermalTransferMode, printMode,
         printWidthMode, labelWaiting, labelsRemaining, formatWhilePrinting, graphicImagesStored
    // Line 3: xxxx,y
    case password, staticRAMInstalled

    /// How a field's text is checked.
    enum Kind {
        /// `0` or `1`.
        case flag
        /// 1 to `width` decimal digits.
        case digits
        /// One ASCII letter or digit.
        case printMode
    }

    /// The fields of each line, in order; `width` is the most digits the ZPL guide gives the field.
    static let lines: [[(field: HostStatusField, width: Int, kind: Kind)]] = [
        [
            (.communicationSettings, 3, .digits), (.paperOut, 1, .flag), (.paused, 1, .flag),
            (.labelLength, 4, .digits), (.formatsInBuffer, 3, .digits), (.bufferFull, 1, .flag),
            (.commDiagnosticsMode, 1, .flag), (.partialFormat, 1, .flag), (.unusedLine1, 3, .digits),
            (.corruptRAM, 1, .flag), (.underTemperature, 1, .flag), (.overTemperature, 1, .flag),
        ],
        [
            (.functionSettings, 3, .digits), (.unusedLine2, 1, .digits), (.headUp, 1, .flag),
            (.ribbonOut, 1, .flag), (.thermalTransferMode, 1, .flag), (.printMode, 1, .printMode),
            (.printWidthMode, 1, .digits), (.labelWaiting, 1, .flag), (.labelsRemaining, 8, .digits),
            (.formatWhilePrinting, 1, .flag), (.graphicImagesStored, 3, .digits),
        ],
        [
            (.password, 4, .digits), (.staticRAMInstalled, 1, .flag),
        ],
    ]
}
