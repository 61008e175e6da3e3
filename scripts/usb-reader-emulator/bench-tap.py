#!/usr/bin/python3
"""Tap → printed output, through the real drivers (scripts/bench.sh section 6).

    bench-tap.py ROUNDS CONTROL-SOCKET READER NAME-PART READY-TEXT -- PROGRAM ARGS…

Per round: the emulated READER's card (a connected `nfctap emulate --vpcd` client) is out of the
field; PROGRAM starts and, once its stderr shows READY-TEXT (it waits for a tag), the card enters
the field (`show`, a NotifySlotChange on the interrupt endpoint); the time until PROGRAM's first
stdout line is one sample. Prints `median MS p90 MS n N` (nearest-rank p90).
"""
import socket
import subprocess
import sys
import threading
import time


def control(path, line):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.sendall((line + "\n").encode())
    answer = s.makefile().readline().strip()
    s.close()
    if not answer.startswith("ok"):
        sys.exit(f"bench-tap: {line}: {answer}")


def wait_until_empty(name_part):
    """Until pcscd reports no card in the reader (it learns of the removal asynchronously)."""
    from smartcard.scard import (SCARD_S_SUCCESS, SCARD_SCOPE_USER, SCARD_STATE_PRESENT, SCARD_STATE_UNAWARE,
                                 SCardEstablishContext, SCardGetStatusChange, SCardListReaders, SCardReleaseContext)
    _, context = SCardEstablishContext(SCARD_SCOPE_USER)
    try:
        _, names = SCardListReaders(context, [])
        name = next(n for n in names if name_part in n)
        for _ in range(300):
            rv, states = SCardGetStatusChange(context, 0, [(name, SCARD_STATE_UNAWARE)])
            if rv == SCARD_S_SUCCESS and not states[0][1] & SCARD_STATE_PRESENT:
                return
            time.sleep(0.01)
        sys.exit(f"bench-tap: pcscd still sees a card in {name}")
    finally:
        SCardReleaseContext(context)


def one_round(control_path, reader, ready, argv, name_part):
    control(control_path, f"hide {reader}")
    wait_until_empty(name_part)
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = threading.Event()

    errors = []

    def watch_stderr():
        for line in process.stderr:
            errors.append(line)
            if ready in line:
                seen.set()
        seen.set()

    threading.Thread(target=watch_stderr, daemon=True).start()
    if not seen.wait(30):
        process.kill()
        sys.exit(f"bench-tap: {argv[0]} never printed {ready!r}")
    time.sleep(0.2)  # past the first SCardGetStatusChange round
    start = time.monotonic()
    control(control_path, f"show {reader}")
    line = process.stdout.readline()
    elapsed = (time.monotonic() - start) * 1000
    process.stdout.read()
    process.wait(30)
    if process.returncode != 0 or not line.strip():
        sys.exit(f"bench-tap: {argv[0]} exited {process.returncode} with {line!r}: {''.join(errors[-5:])}")
    return elapsed


def main():
    if len(sys.argv) < 8 or sys.argv[6] != "--":
        sys.exit(__doc__)
    rounds, control_path, reader, name_part, ready = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
    argv = sys.argv[7:]
    samples = sorted(one_round(control_path, reader, ready, argv, name_part) for _ in range(rounds))
    median = samples[len(samples) // 2] if len(samples) % 2 else (samples[len(samples) // 2 - 1] + samples[len(samples) // 2]) / 2
    p90 = samples[max(0, -(-len(samples) * 9 // 10) - 1)]
    print(f"median {median:.1f} p90 {p90:.1f} n {len(samples)}")


if __name__ == "__main__":
    main()
