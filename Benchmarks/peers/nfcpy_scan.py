#!/usr/bin/env python3
"""One tap as a whole nfcpy program: open the reader, read one tag's NDEF message, print it, close.

Usage: nfcpy_scan.py tty:USB<n>:pn532
Prints the message as hex on stdout (or `error <why>` and exits 1). The whole-command peer of
`nfctap scan --json` in scripts/bench-commands.sh: start-up, open, read and close all count.
"""
import sys

import nfc

from nfcpy_read import keep_field_on


def main():
    try:
        clf = nfc.ContactlessFrontend(sys.argv[1])
    except Exception as error:  # nfcpy raises IOError(ENODEV) when the open sequence fails
        print("error open %r" % (error,))
        return 1
    keep_field_on(clf)
    try:
        tag = clf.connect(rdwr={"on-connect": lambda tag: False})
        if not tag or not tag.ndef:
            print("error no tag or no NDEF")
            return 1
        print(bytes(tag.ndef.octets).hex())
    finally:
        try:
            clf.close()
        except Exception:
            pass  # close() sends SetSerialBaudRate (10h), which the emulator does not implement
    return 0


if __name__ == "__main__":
    sys.exit(main())
