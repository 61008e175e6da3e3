#!/usr/bin/env python3
"""NDEF decode throughput of ndeflib on the corpus nfctap-bench wrote (Benchmarks/nfctap-bench/NDEFCorpus.swift).

Usage: ndeflib_decode.py CORPUS [SECONDS]
Prints: mbps M messages N bytes B failures F
Each message is decoded with ndef.message_decoder (strict), which, like nfctap's
NDEFMessage(bytes:) + parsed(), frames the records and decodes the payloads of known types.
"""
import struct
import sys
import time

import ndef


def load(path):
    data = open(path, "rb").read()
    messages, i = [], 0
    while i + 4 <= len(data):
        (n,) = struct.unpack(">I", data[i:i + 4])
        messages.append(data[i + 4:i + 4 + n])
        i += 4 + n
    return messages


def main():
    messages = load(sys.argv[1])
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
    total = sum(len(m) for m in messages)
    failures = 0
    for m in messages:
        try:
            list(ndef.message_decoder(m))
        except Exception:
            failures += 1
    rounds, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for m in messages:
            try:
                list(ndef.message_decoder(m))
            except Exception:
                pass
        rounds += 1
    elapsed = time.perf_counter() - start
    print("mbps %f messages %d bytes %d failures %d" % (total * rounds / elapsed / 1e6, len(messages), total, failures))


if __name__ == "__main__":
    main()
