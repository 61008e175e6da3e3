/// Raw Type 2 frames through the PC/SC Part 3 transparent exchange (`PCSCTransparentExchange`).
extension PseudoAPDUType2Link {
    /// Start session, transceive, end session (PC/SC Part 3 Supplement §3.2.7). The session is
    /// ended whatever the transceive did, so the reader goes back to its own polling.
    func transparentExchange(_ frame: [UInt8]) throws(TagError) -> [UInt8] {
        do throws(TagError) {
            try checkSessionReply(try transmit(PCSCTransparentExchange.startSession), "start transparent session")
            sessionWorked = true
        } catch where !sessionWorked {
            guard let why = PCSCTransparentExchange.startRefusal(error) else { throw error }
            rawPathRefused = true
            throw TagError.unsupported("the reader refused a transparent session (\(why))")
        }
        let outcome = Result { () throws(TagError) in try transparentTransceive(frame) }
        let ended = Result { () throws(TagError) in try transmit(PCSCTransparentExchange.endSession) }
        let answer = try outcome.get()
        // The answer arrived, but a reader still in its session (or a tag gone meanwhile) is not a
        // state to go on from: the end's failure is the exchange's.
        _ = try ended.get()
        return answer
    }

    /// Status words of a reader that does not implement a command: `6A 81` function not supported,
    /// `6D 00` INS, `6E 00` CLA, `68 00` / `68 81` CLA functions, `6A 86` P1-P2 (ISO 7816-4 §5.1.3).
    static func meansNotImplemented(_ sw1: UInt8, _ sw2: UInt8) -> Bool {
        [[0x6A, 0x81], [0x6D, 0x00], [0x6E, 0x00], [0x68, 0x00], [0x68, 0x81], [0x6A, 0x86]].contains([sw1, sw2])
    }

    private func transparentTransceive(_ frame: [UInt8]) throws(TagError) -> [UInt8] {
        let data: [UInt8]
        do throws(TagError) {
            data = try transmit(try PCSCTransparentExchange.transceive(frame))
        } catch let TagError.status(sw1, sw2) where (sw1, sw2) == (0x64, 0x01) || (sw1, sw2) == (0x62, 0x82) {
            throw TagError.tagLost
        }
        let response = try PCSCTransparentExchange.parse(data)
        if let status = response.errorStatus, (status.sw1, status.sw2) != (0x90, 0x00) {
            // §3.2.7.2: 64 01 / 62 82 — no answer from the card (a mute Ultralight on GET_VERSION).
            if (status.sw1, status.sw2) == (0x64, 0x01) || (status.sw1, status.sw2) == (0x62, 0x82) { throw TagError.tagLost }
            throw TagError.unsupported("the reader refused data object \(status.index) of the transparent exchange (\(statusWordText(status.sw1, status.sw2)))")
        }
        guard let answer = response.iccResponse else { throw TagError.tagLost }
        return answer
    }

    private func checkSessionReply(_ data: [UInt8], _ what: String) throws(TagError) {
        let response = try PCSCTransparentExchange.parse(data)
        if let status = response.errorStatus, (status.sw1, status.sw2) != (0x90, 0x00) {
            throw TagError.unsupported("\(what): \(statusWordText(status.sw1, status.sw2))")
        }
    }
}
