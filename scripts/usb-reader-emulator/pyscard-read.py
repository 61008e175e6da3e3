#!/usr/bin/python3
"""The benchmark's baseline: a straightforward pyscard reader (scripts/bench.sh, docs/benchmarks.md).

    pyscard-read.py READER-SUBSTRING

Waits for a card on the first reader whose name contains READER-SUBSTRING, reads the UID
(FF CA 00 00 00) and the Type 2 NDEF area with READ BINARY (FF B0 00 page 10, 16 bytes at a
time from page 4 until the TLV terminator FE), prints `UID HEX-OF-MESSAGE` and exits. No
retries, no tear safety, no checks beyond the status words: what a first script would do.
"""
import sys

from smartcard.CardRequest import CardRequest
from smartcard.System import readers


def main():
    wanted = sys.argv[1]
    reader = next(r for r in readers() if wanted in str(r))
    print("waiting for a card", file=sys.stderr, flush=True)
    service = CardRequest(readers=[reader], timeout=30).waitforcard()
    service.connection.connect()
    tx = service.connection.transmit
    uid, sw1, sw2 = tx([0xFF, 0xCA, 0x00, 0x00, 0x00])
    if (sw1, sw2) != (0x90, 0x00):
        sys.exit(f"GET DATA failed: {sw1:02X}{sw2:02X}")
    memory, page = [], 4
    while page < 256:
        data, sw1, sw2 = tx([0xFF, 0xB0, 0x00, page, 0x10])
        if (sw1, sw2) != (0x90, 0x00):
            break
        memory += data
        page += 4
        if 0xFE in memory:
            break
    # The NDEF TLV (03 len …) at the start of the data area.
    message = b""
    i = 0
    while i < len(memory) and memory[i] != 0xFE:
        t = memory[i]
        if t == 0x00:
            i += 1
            continue
        length = memory[i + 1]
        if t == 0x03:
            message = bytes(memory[i + 2:i + 2 + length])
            break
        i += 2 + length
    print(bytes(uid).hex().upper(), message.hex().upper(), flush=True)


if __name__ == "__main__":
    main()
