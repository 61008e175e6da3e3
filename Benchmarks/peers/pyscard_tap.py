#!/usr/bin/python3
"""A straightforward pyscard reader: the baseline of `nfctap-bench tap-to-output`.

Usage: pyscard_tap.py
Watches every PC/SC reader (SCardGetStatusChange), and on the first card: connects (shared),
reads the UID (FF CA 00 00 00) and the NDEF message of a Type 4 tag (SELECT the NDEF
application, SELECT and READ the CC, SELECT and READ the NDEF file), prints one JSON line on
stdout and exits. "ready" goes to stderr once the first state query has returned, so the
harness taps only when the reader is being watched. No batching, no threads: the least a
program can do between pcscd reporting the card and printing it.
"""
import json
import sys

from smartcard import scard

NDEF_APP = [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00]
SELECT_CC = [0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03]


def check(result, what):
    if result != scard.SCARD_S_SUCCESS:
        raise SystemExit("pyscard_tap: %s: %s" % (what, scard.SCardGetErrorMessage(result)))


def transmit(card, protocol, apdu):
    result, reply = scard.SCardTransmit(card, protocol, apdu)
    check(result, "SCardTransmit")
    if len(reply) < 2 or reply[-2:] != [0x90, 0x00]:
        raise SystemExit("pyscard_tap: %s answered %s" % (bytes(apdu).hex(), bytes(reply).hex()))
    return reply[:-2]


def main():
    result, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
    check(result, "SCardEstablishContext")
    result, readers = scard.SCardListReaders(context, [])
    check(result, "SCardListReaders")
    states = [(reader, scard.SCARD_STATE_UNAWARE) for reader in readers]
    result, states = scard.SCardGetStatusChange(context, 0, states)
    check(result, "SCardGetStatusChange")
    print("ready", file=sys.stderr, flush=True)
    while True:
        present = [r for r, state, _ in states if state & scard.SCARD_STATE_PRESENT and not state & scard.SCARD_STATE_MUTE]
        if present:
            break
        states = [(r, state & ~scard.SCARD_STATE_CHANGED) for r, state, _ in states]
        result, states = scard.SCardGetStatusChange(context, scard.INFINITE, states)
        check(result, "SCardGetStatusChange")
    reader = present[0]
    result, card, protocol = scard.SCardConnect(context, reader, scard.SCARD_SHARE_SHARED,
                                                scard.SCARD_PROTOCOL_T0 | scard.SCARD_PROTOCOL_T1)
    check(result, "SCardConnect")
    uid = transmit(card, protocol, [0xFF, 0xCA, 0x00, 0x00, 0x00])
    transmit(card, protocol, NDEF_APP)
    transmit(card, protocol, SELECT_CC)
    cc = transmit(card, protocol, [0x00, 0xB0, 0x00, 0x00, 0x0F])
    file_id = cc[9:11]
    transmit(card, protocol, [0x00, 0xA4, 0x00, 0x0C, 0x02] + file_id)
    max_read = min((cc[3] << 8) | cc[4], 0xFF)
    head = transmit(card, protocol, [0x00, 0xB0, 0x00, 0x00, max_read])
    length = (head[0] << 8) | head[1]
    ndef = head[2:2 + length]
    while len(ndef) < length:
        offset = 2 + len(ndef)
        chunk = transmit(card, protocol, [0x00, 0xB0, offset >> 8, offset & 0xFF, min(max_read, length - len(ndef))])
        ndef += chunk
    scard.SCardDisconnect(card, scard.SCARD_LEAVE_CARD)
    print(json.dumps({"uid": bytes(uid).hex().upper(), "reader": reader, "ndef": bytes(ndef).hex()}), flush=True)
    scard.SCardReleaseContext(context)


if __name__ == "__main__":
    main()
