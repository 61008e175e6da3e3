#!/usr/bin/env python3
"""nfcpy reading the NDEF message of the emulated NTAG213 through its tty PN532 driver.

Usage: nfcpy_read.py tty:USB<n>:pn532 ROUNDS
Prints: open_ms O ms_per_read M bytes B   (or: error <why>)
Each read is what an nfcpy reader loop does per tap: clf.connect(rdwr=...) senses and activates
the tag, then tag.ndef reads the NDEF message. The driver's own open sequence is timed apart.
"""
import sys
import time

import nfc


def main():
    path, rounds = sys.argv[1], int(sys.argv[2])
    start = time.perf_counter()
    try:
        clf = nfc.ContactlessFrontend(path)
    except Exception as error:  # nfcpy raises IOError(ENODEV) when the open sequence fails
        print("error open %s: %r" % (path, error))
        return 1
    open_ms = (time.perf_counter() - start) * 1000
    try:
        def read_once():
            tag = clf.connect(rdwr={"on-connect": lambda tag: False})
            if not tag or not tag.ndef:
                raise RuntimeError("no tag or no NDEF: %r" % (tag,))
            return bytes(tag.ndef.octets)

        expected = read_once()  # warm-up, outside the timed loop
        sys.stdout.write("warm\n")
        sys.stdout.flush()
        sys.stdin.readline()  # the caller resets the emulator's counters here
        start = time.perf_counter()
        for _ in range(rounds):
            if read_once() != expected:
                raise RuntimeError("reads differ")
        ms = (time.perf_counter() - start) * 1000 / rounds
        print("open_ms %f ms_per_read %f bytes %d" % (open_ms, ms, len(expected)))
    except Exception as error:
        print("error read: %r" % (error,))
        return 1
    finally:
        clf.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
