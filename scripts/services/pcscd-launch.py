#!/usr/bin/python3
"""Starts pcscd on a private socket: `pcscd-launch.py SOCKET -- pcscd ARGS...`.

pcsc-lite 1.9.9's daemon always binds /run/pcscd/pcscd.comm itself, but it takes a socket
handed over the systemd way (sd_listen_fds: fd 3, LISTEN_FDS=1, LISTEN_PID=<its pid>). This
binds SOCKET, puts it on fd 3 and execs pcscd in this same process, so the pid stays the same.
Clients reach it with PCSCLITE_CSOCK_NAME=SOCKET (read by libpcsclite 1.9.9).
"""
import os
import socket
import sys


def main() -> None:
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: pcscd-launch.py SOCKET -- pcscd ARGS...")
    path, argv = sys.argv[1], sys.argv[3:]
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(path)
    os.chmod(path, 0o666)
    sock.listen(64)
    if sock.fileno() != 3:
        os.dup2(sock.fileno(), 3)
    os.set_inheritable(3, True)
    # Whatever else this process inherited (e.g. the pipe a test runner uses to see the control
    # script exit) must not stay open in the long-lived daemon.
    os.closerange(4, os.sysconf("SC_OPEN_MAX"))
    os.environ["LISTEN_FDS"] = "1"
    os.environ["LISTEN_PID"] = str(os.getpid())
    os.environ.pop("LISTEN_FDNAMES", None)
    os.execvp(argv[0], argv)


if __name__ == "__main__":
    main()
