"""The card in an emulated reader's field, served by the project's own virtual tags (TagEmulation).

Two sources, so one byte-accurate tag implementation serves both the vpcd ring and this one:
- VPCDCardPort: the emulator listens where vsmartcard's vpcd driver would; `nfctap emulate --vpcd
  127.0.0.1:PORT --profile P` connects as the card (connect = tap, close = remove) and answers
  APDUs and the reader's pseudo-APDUs of its profile (vpcd protocol: 2-byte big-endian length, then
  `00` power off, `01` power on, `02` reset, `04` get ATR, or a C-APDU; docs/tags-and-readers.md §5).
- PN53xChipPort: the PN532 emulator on a pseudo-terminal (`nfctap emulate --pn532-pty --link PATH`);
  PN53x command frames are written to it and the ACK and response frames read back.
"""
import os
import select
import socket
import struct
import threading
import time


class VPCDCardPort:
    def __init__(self, port: int, on_change):
        self.port = port
        self.on_change = on_change  # called with True (card in) / False (card out)
        self.lock = threading.Lock()
        self.conn: socket.socket | None = None
        self.refusing = False
        self.hidden = False
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", port))
        self.server.listen(4)
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def present(self) -> bool:
        return self.conn is not None and not self.hidden

    def hide(self, hidden: bool):
        """Keeps a connected card out of the field (hidden) or brings it in: a tap at an exact
        moment for the benchmark, without the card client's connection time."""
        if self.hidden == hidden:
            return
        self.hidden = hidden
        if self.conn is not None:
            self.on_change(not hidden)

    def _accept(self):
        while True:
            conn, _ = self.server.accept()
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self.lock:
                if self.conn is not None or self.refusing:
                    conn.close()
                    continue
                self.conn = conn
            if not self.hidden:
                self.on_change(True)
            threading.Thread(target=self._watch, args=(conn,), daemon=True).start()

    def _watch(self, conn):
        # Card removal is the client closing: poll for hang-up without reading (exchanges read).
        poller = select.poll()
        poller.register(conn, select.POLLRDHUP)
        while True:
            events = poller.poll(1000)
            with self.lock:
                if self.conn is not conn:
                    return
            if events and events[0][1] & (select.POLLRDHUP | select.POLLHUP | select.POLLERR):
                self._drop(conn)
                return

    def _drop(self, conn):
        with self.lock:
            if self.conn is not conn:
                return
            self.conn = None
        try:
            conn.close()
        except OSError:
            pass
        if not self.hidden:
            self.on_change(False)

    def remove(self, refuse: bool):
        """Takes the card out (closes the client); with refuse, keeps it out until `allow()`."""
        self.refusing = refuse
        conn = self.conn
        if conn is not None:
            self._drop(conn)

    def allow(self):
        self.refusing = False

    def _exchange(self, payload: bytes, reply: bool) -> bytes | None:
        conn = self.conn
        if conn is None:
            return None
        try:
            conn.sendall(struct.pack(">H", len(payload)) + payload)
            if not reply:
                return b""
            conn.settimeout(5)
            head = self._read(conn, 2)
            return self._read(conn, struct.unpack(">H", head)[0])
        except (OSError, ValueError, struct.error):
            self._drop(conn)
            return None

    @staticmethod
    def _read(conn, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = conn.recv(n - len(data))
            if not chunk:
                raise ValueError("closed")
            data += chunk
        return data

    def power_on(self) -> bytes | None:
        if self._exchange(b"\x01", reply=False) is None:
            return None
        return self._exchange(b"\x04", reply=True) or None

    def power_off(self):
        self._exchange(b"\x00", reply=False)

    def transmit(self, apdu: bytes) -> bytes | None:
        return self._exchange(apdu, reply=True)


def pn53x_frame(tfi_and_data: bytes) -> bytes:
    """A PN53x normal information frame (PN533 user manual §6.2.1.1): 00 00 FF LEN LCS TFI PD… DCS 00."""
    n = len(tfi_and_data)
    return bytes([0, 0, 0xFF, n, (-n) & 0xFF]) + tfi_and_data + bytes([(-sum(tfi_and_data)) & 0xFF, 0])


class PN53xChipPort:
    """Frames to and from the PN532 emulator on a pseudo-terminal (opened per exchange: the
    emulator may be restarted under the same link, like a reader's chip being reset)."""
    ACK = bytes([0, 0, 0xFF, 0, 0xFF, 0])

    def __init__(self, path: str):
        self.path = path
        self.fd: int | None = None
        self.lock = threading.Lock()

    @property
    def present(self) -> bool:
        return os.path.exists(self.path)

    def _open(self):
        if self.fd is None:
            fd = os.open(self.path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
            import termios
            import tty
            tty.setraw(fd)
            attrs = termios.tcgetattr(fd)
            attrs[3] &= ~termios.ECHO
            termios.tcsetattr(fd, termios.TCSANOW, attrs)
            self.fd = fd
        return self.fd

    def close(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def frames(self, frame: bytes, timeout: float = 2.0) -> list[bytes]:
        """Writes one frame; returns the frames read back (ACK, then the response) until a response
        frame or the timeout. An ACK frame written (abort) gets no answer."""
        with self.lock:
            try:
                fd = self._open()
                os.write(fd, frame)
                if frame == self.ACK:
                    return []
                out, buf = [], b""
                deadline = time.monotonic() + timeout
                while time.monotonic() < deadline:
                    r, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
                    if not r:
                        break
                    buf += os.read(fd, 512)
                    while True:
                        start = buf.find(b"\x00\x00\xff")
                        if start < 0 or len(buf) < start + 5:
                            break
                        if buf[start + 3] == 0 and buf[start + 4] == 0xFF:
                            out.append(bytes(buf[start:start + 6]))
                            buf = buf[start + 6:]
                            continue
                        n = buf[start + 3]
                        end = start + 5 + n + 2
                        if len(buf) < end:
                            break
                        out.append(bytes(buf[start:end]))
                        buf = buf[end:]
                        return out
                return out
            except OSError:
                self.close()
                return []

    def command(self, tama: bytes) -> bytes | None:
        """Sends `D4 cmd …`, returns `D5 cmd+1 …` or None."""
        for f in self.frames(pn53x_frame(tama)):
            if f != self.ACK and len(f) > 7:
                return f[5:5 + f[3]]
        return None
