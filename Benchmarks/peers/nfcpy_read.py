#!/usr/bin/env python3
"""nfcpy reading the NDEF message of the emulated NTAG213 through its tty PN532 driver.

Usage: nfcpy_read.py tty:USB<n>:pn532 ROUNDS
Prints: open_ms O ms_per_read M bytes B   (or: error <why>)
Each read is what an nfcpy reader loop does per tap: clf.connect(rdwr=...) senses and activates
the tag, then tag.ndef reads the NDEF message. The driver's own open sequence is timed apart.
Three adaptations to the PN532 emulator's gaps (see keep_field_on and the close() below; scripts/bench.sh
also gives nfcpy a `stty` that refuses, so it stays at 115200 baud on the pseudo-terminal).
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
    keep_field_on(clf)
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
        try:
            clf.close()
        except Exception:
            pass  # nfcpy's close() sends SetSerialBaudRate (10h), which the emulator does not implement
    return 0


def keep_field_on(clf):
    """nfcpy mutes the reader between polls with RFConfiguration 01 02 (RF off, auto RFCA on),
    counting on a real PN532 to switch the field back on for InListPassiveTarget. The project's
    PN532 emulator keeps the field off instead and never finds the tag; sending 01 03 (RF on, auto
    RFCA on) keeps the same frames on the wire and lets nfcpy find the tag."""
    chipset = clf.device.chipset
    original = chipset.rf_configuration

    def rf_configuration(cfg_item, cfg_data):
        data = bytearray(cfg_data)
        if cfg_item == 0x01 and data and data[0] == 0x02:
            data[0] = 0x03
        return original(cfg_item, data)

    chipset.rf_configuration = rf_configuration

    # nfcpy re-selects a tag by its UID in cascade format (88 + UID0-2, UID3-6, as the PN532
    # manual and libnfc send it); the emulator compares the plain UID and answers "no target".
    original_list = chipset.in_list_passive_target

    def in_list_passive_target(max_tg, brty, initiator_data):
        data = bytearray(initiator_data)
        if brty == 0 and len(data) in (8, 12) and data[0] == 0x88:
            data = data[1:] if len(data) == 8 else data[1:4] + data[5:]
        return original_list(max_tg, brty, data)

    chipset.in_list_passive_target = in_list_passive_target


if __name__ == "__main__":
    sys.exit(main())
