extension Type2Tag {
    /// Formats a blank tag (CC `00 00 00 00`) for NDEF: writes the product's TLVs at page 4
    /// (`03 00 FE`; NTAG213 and Ultralight C with their Lock Control TLV), then the CC last, so a
    /// torn format leaves the tag blank or formatted.
    /// - Parameter product: the chip, when GET_VERSION cannot tell (Ultralight, Ultralight C,
    ///   readers without raw commands). Must agree with GET_VERSION when both are known.
    /// - Throws: `TagError.unsupported` when the product is unknown or disagrees, or the CC is not
    ///   blank (it is one-time programmable); the link's errors.
    public func format(as product: Type2Product? = nil) throws(TagError) {
        try guarded { () throws(TagError) in
            let probe = try probeVersion()
            var detected: Type2Product?
            if case let .answered(v) = probe { detected = Type2Product(version: v) ?? .unknown }
            if let product, let detected, detected != .unknown, detected != product {
                throw TagError.unsupported("the tag answers as \(detected), not \(product)")
            }
            guard let chosen = product ?? detected, let cc = chosen.capabilityContainer else {
                throw TagError.unsupported("the tag's product is unknown: name it to format")
            }
            var tlvs = chosen.formattedTLVs
            while tlvs.count % 4 != 0 { tlvs.append(0x00) }
            let tlvPages = (0 ..< tlvs.count / 4).map { 4 + $0 }
            try cache.fetch(pages: [3] + tlvPages)
            let current = cache.page(3)
            guard current == [0, 0, 0, 0] else {
                if current == cc.bytes {
                    throw TagError.unsupported("the tag is already NDEF formatted: write an empty message instead")
                }
                throw TagError.unsupported("the CC is \(current.hexString(separator: " ")), not blank; it is one-time programmable")
            }
            for (i, page) in tlvPages.enumerated() {
                let data = Array(tlvs[i * 4 ..< i * 4 + 4])
                if cache.page(page) != data {
                    try link.write(page: page, data: data)
                    cache.store(page: page, data: data)
                }
            }
            try link.write(page: 3, data: cc.bytes)
            cache.store(page: 3, data: cc.bytes)
        }
    }
}
