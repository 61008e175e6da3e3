"""Answers the usbdevfs ioctls a client (libusb-1.0 in libccid, libusb-0.1 in libnfc) sends to an
emulated device node, through umockdev's ioctl handler (docs/tags-and-readers.md §5).

URBs: SUBMITURB keeps the client's `struct usbdevfs_urb` (56 bytes on x86-64: type@0, endpoint@1,
status@4, buffer@16, buffer_length@24, actual_length@28) and its buffer; a completed URB is handed
back by REAPURB / REAPURBNDELAY, which write the client's URB address into the argument.

No busy-spin. libusb-1.0 polls the node for POLLOUT (the kernel's "a URB can be reaped") and then
reaps with REAPURBNDELAY; a regular file always polls writable, so it would reap in a loop. Two modes:
- fifo (libusb-1.0 clients: pcscd + libccid): the node is a FIFO the emulator keeps full, so it
  polls writable only while a completed URB waits to be reaped (emptied then, refilled after);
- file (libusb-0.1 clients: libnfc reads the descriptors from the node, so it must be a file): an
  empty non-blocking reap is held back (1 ms, doubling to NFCTAP_USB_REAP_HOLD_MS, 20 by default)
  and answered at once when a URB completes meanwhile. The preload serialises a client's ioctls
  on one descriptor, so a held reap also delays that client's next submission: fine for libnfc,
  which has one thread.
"""
import errno
import fcntl
import os
import termios
import heapq
import struct
import threading
import time

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402


def _ioc(direction, nr, size):
    return (direction << 30) | (size << 16) | (0x55 << 8) | nr


IO, IOW, IOR, IOWR = 0, 1, 2, 3
CONTROL = _ioc(IOWR, 0, 24)
BULK = _ioc(IOWR, 2, 24)
RESETEP = _ioc(IOR, 3, 4)
SETINTERFACE = _ioc(IOR, 4, 8)
SETCONFIGURATION = _ioc(IOR, 5, 4)
GETDRIVER = _ioc(IOW, 8, 260)
SUBMITURB = _ioc(IOR, 10, 56)
DISCARDURB = _ioc(IO, 11, 0)
REAPURB = _ioc(IOW, 12, 8)
REAPURBNDELAY = _ioc(IOW, 13, 8)
CLAIMINTERFACE = _ioc(IOR, 15, 4)
RELEASEINTERFACE = _ioc(IOR, 16, 4)
CONNECTINFO = _ioc(IOW, 17, 8)
IOCTL = _ioc(IOWR, 18, 16)
RESET = _ioc(IO, 20, 0)
CLEAR_HALT = _ioc(IOR, 21, 4)
GET_CAPABILITIES = _ioc(IOR, 26, 4)
DISCONNECT_CLAIM = _ioc(IOR, 27, 264)
GET_SPEED = _ioc(IO, 31, 0)

URB_CONTROL, URB_BULK, URB_INTERRUPT = 2, 3, 1
FIFO_KEEP = 8192  # bytes left in a writable FIFO node (see _sync_poll)


class Timers:
    """One thread running delayed callbacks (held reaps)."""

    def __init__(self):
        self.cond = threading.Condition()
        self.heap = []
        self.n = 0
        threading.Thread(target=self._run, daemon=True).start()

    def call_later(self, delay, fn):
        with self.cond:
            self.n += 1
            heapq.heappush(self.heap, (time.monotonic() + delay, self.n, fn))
            self.cond.notify()

    def _run(self):
        while True:
            with self.cond:
                while not self.heap or self.heap[0][0] > time.monotonic():
                    self.cond.wait(None if not self.heap else self.heap[0][0] - time.monotonic())
                _, _, fn = heapq.heappop(self.heap)
            fn()


TIMERS = Timers()
MAX_HOLD = float(os.environ.get("NFCTAP_USB_REAP_HOLD_MS", "20")) / 1000


class URB:
    def __init__(self, data, buffer, addr, kind, endpoint, length):
        self.data, self.buffer, self.addr = data, buffer, addr
        self.kind, self.endpoint, self.length = kind, endpoint, length
        self.status, self.actual = 0, 0


class DeviceHandler:
    """The ioctl handler of one device node. Shared by every process that opens the node."""

    def __init__(self, reader, on_activity, fifo_fd=None):
        self.reader = reader
        self.fifo_fd = fifo_fd   # the emulator's end of a fifo node, or None (file node)
        self.writable = True
        self.profile = reader.profile
        self.on_activity = on_activity
        # One lock for the reader and its node: card events (reader → endpoint queues) and ioctls
        # (endpoint → reader) cross in both directions.
        self.lock = reader.lock
        self.pending = {}        # IN endpoint → [URB] waiting for data
        self.queued = {}         # IN endpoint → [bytes] waiting for a URB
        self.done = {}           # client → [URB] completed, not reaped
        self.urb_owner = {}      # URB address → client
        self.held = {}           # client → (client object, kind) a reap waiting
        self.idle = {}           # client → current back-off
        self.claims = {}         # interface number → client
        self.clients = {}        # key → the clients seen, kept alive (see _key)
        self.gone = False
        self.base = UMockdev.IoctlBase()
        self.base.connect("handle-ioctl", self._handle)
        self.base.connect("client-vanished", self._vanished)
        reader.on_interrupt = self.queue_in

    # ---- events from the reader ----
    def queue_in(self, endpoint, data):
        with self.lock:
            self.queued.setdefault(endpoint, []).append(data)
            self._match(endpoint)
            self._sync_poll()

    def unplug(self):
        with self.lock:
            self.gone = True
            for urbs in self.pending.values():
                for urb in urbs:
                    urb.status = -errno.ENODEV
                    self._complete(urb)
            self.pending.clear()
            for key in list(self.held):
                client, _ = self.held.pop(key)
                client.complete(-1, errno.ENODEV)
            self._sync_poll()

    # ---- the node's poll state (fifo mode) ----
    def _sync_poll(self):
        """Full pipe: not writable; at most KEEP bytes: writable (POLLOUT needs PIPE_BUF free).
        Never empty: libusb 0.1 (libnfc) reads every node of the bus for descriptors, and a read of
        an empty FIFO would block it for ever; it gets zeros, which it skips as no device."""
        if self.fifo_fd is None:
            return
        want = self.gone or any(self.done.values())
        try:
            if want:
                queued = struct.unpack("i", fcntl.ioctl(self.fifo_fd, termios.FIONREAD, b"\0\0\0\0"))[0]
                while queued > FIFO_KEEP:
                    queued -= len(os.read(self.fifo_fd, queued - FIFO_KEEP))
                while queued < FIFO_KEEP:
                    queued += os.write(self.fifo_fd, bytes(FIFO_KEEP - queued))
            else:
                while os.write(self.fifo_fd, bytes(4096)):
                    pass
        except BlockingIOError:
            pass
        self.writable = want

    # ---- URB bookkeeping ----
    def _match(self, endpoint):
        while self.pending.get(endpoint) and self.queued.get(endpoint):
            urb = self.pending[endpoint].pop(0)
            data = self.queued[endpoint].pop(0)[:urb.length]
            if urb.endpoint in self.reader.faults.stall:
                self.reader.faults.stall.discard(urb.endpoint)
                urb.status = -errno.EPIPE
            else:
                urb.buffer.update(0, list(data))
                urb.actual = len(data)
            self._complete(urb)

    def _complete(self, urb):
        owner = self.urb_owner.get(urb.addr)
        if owner is None:
            return
        self.done.setdefault(owner, []).append(urb)
        self.idle[owner] = 0.001
        held = self.held.pop(owner, None)
        if held:
            self._reap_into(held[0], owner)

    def _reap_into(self, client, owner):
        urb = self.done[owner].pop(0)
        self.urb_owner.pop(urb.addr, None)
        urb.data.update(4, list(struct.pack("<i", urb.status)))
        urb.data.update(28, list(struct.pack("<i", urb.actual)))
        client.get_arg().resolve(0, 8).set_ptr(0, urb.data)
        client.complete(0, 0)

    # ---- ioctls ----
    def _vanished(self, _base, client):
        with self.lock:
            key = self._key(client)
            self.clients.pop(key, None)
            self.held.pop(key, None)
            self.done.pop(key, None)
            for number, owner in list(self.claims.items()):
                if owner == key:
                    del self.claims[number]
            for address, owner in list(self.urb_owner.items()):
                if owner == key:
                    del self.urb_owner[address]
            for endpoint in self.pending:
                self.pending[endpoint] = [u for u in self.pending[endpoint] if u.addr in self.urb_owner]

    def _key(self, client):
        # A client's Python wrapper is only the same object (and hash) while one is alive: keep
        # it until the client vanishes, so its claims and URBs stay attributed to it.
        self.clients[hash(client)] = client
        return hash(client)

    def _handle(self, _base, client):
        request = client.get_request() & 0xFFFFFFFF
        try:
            with self.lock:
                handled = self._dispatch(client, request)
                self._sync_poll()
                return handled
        except Exception as exc:  # a bug here must not hang the client
            print(f"usb-reader-emulator: ioctl 0x{request:08X}: {exc!r}", flush=True)
            client.complete(-1, errno.EIO)
            return True

    def _dispatch(self, client, request):
        key = self._key(client)
        if self.gone and request not in (RELEASEINTERFACE, DISCARDURB, REAPURB, REAPURBNDELAY):
            client.complete(-1, errno.ENODEV)
            return True
        # The argument is the client's pointer; resolve() reaches what it points to.
        arg = client.get_arg()
        if request == SUBMITURB:
            self.on_activity()
            arg = arg.resolve(0, 56)
            raw = bytes(arg.retrieve())
            kind, endpoint = raw[0], raw[1]
            length = struct.unpack_from("<i", raw, 24)[0]
            buffer = arg.resolve(16, length) if length > 0 else None
            urb = URB(arg, buffer, arg.client_addr, kind, endpoint, length)
            self.urb_owner[urb.addr] = key
            self.reader.count("urb")
            if kind == URB_CONTROL:
                setup = bytes(buffer.retrieve())[:8]
                status, reply = self._control(setup)
                urb.status = status
                if reply:
                    buffer.update(8, list(reply))
                urb.actual = len(reply)
                self._complete(urb)
            elif endpoint & 0x80:
                self.pending.setdefault(endpoint, []).append(urb)
                self._match(endpoint)
            else:
                data = bytes(buffer.retrieve())[:length] if buffer else b""
                if endpoint in self.reader.faults.stall:
                    self.reader.faults.stall.discard(endpoint)
                    urb.status = -errno.EPIPE
                    self._complete(urb)
                else:
                    urb.actual = len(data)
                    self._complete(urb)
                    interface = self._interface_of(endpoint)
                    replies = self.reader.bulk_out(interface or 0, data) if data else []
                    in_ep = self.profile.interfaces[interface or 0].bulk_in
                    for r in replies or []:
                        self.queued.setdefault(in_ep, []).append(r)
                    self._match(in_ep)
            client.complete(0, 0)
            return True
        if request in (REAPURB, REAPURBNDELAY):
            if self.done.get(key):
                self._reap_into(client, key)
                return True
            if self.gone:
                client.complete(-1, errno.ENODEV)
                return True
            if request == REAPURBNDELAY and self.fifo_fd is not None:
                client.complete(-1, errno.EAGAIN)
                return True
            self.held[key] = (client, request)
            if request == REAPURBNDELAY:
                delay = self.idle.get(key, 0.001)
                self.idle[key] = min(delay * 2, MAX_HOLD)
                TIMERS.call_later(delay, lambda: self._release(key, client))
            return True
        if request == DISCARDURB:
            address = struct.unpack_from("<Q", bytes(arg.retrieve()).ljust(8, b"\0"))[0]
            for endpoint, urbs in self.pending.items():
                for urb in urbs:
                    if urb.addr == address:
                        urbs.remove(urb)
                        urb.status = -errno.ENOENT
                        self._complete(urb)
                        client.complete(0, 0)
                        return True
            client.complete(-1, errno.EINVAL)
            return True
        if request == CONTROL:
            arg = arg.resolve(0, 24)
            raw = bytes(arg.retrieve())
            setup = raw[:8]
            length = struct.unpack_from("<H", raw, 6)[0]
            status, reply = self._control(setup)
            if status:
                client.complete(-1, -status)
                return True
            if reply and length:
                arg.resolve(16, length).update(0, list(reply[:length]))
            client.complete(len(reply[:length]) if setup[0] & 0x80 else length, 0)
            return True
        if request == CLAIMINTERFACE:
            number = self._int_arg(arg)
            owner = self.claims.get(number)
            if owner is not None and owner != key and not self._connected(owner):
                # umockdev 0.17 emits no client-vanished here: a dead owner's claim is dropped
                # when someone else asks (the kernel releases it when the process closes the node).
                self._vanished(None, self.clients[owner])
                owner = None
            if owner is not None and owner != key:
                client.complete(-1, errno.EBUSY)
                return True
            self.claims[number] = key
            client.complete(0, 0)
            return True
        if request == RELEASEINTERFACE:
            number = self._int_arg(arg)
            if self.claims.get(number) == key:
                del self.claims[number]
            client.complete(0, 0)
            return True
        if request == GETDRIVER:
            client.complete(-1, errno.ENODATA)
            return True
        if request == GET_CAPABILITIES:
            arg.resolve(0, 4).update(0, list(struct.pack("<I", 0)))
            client.complete(0, 0)
            return True
        if request == CONNECTINFO:
            arg.resolve(0, 8).update(0, list(struct.pack("<IB3x", 2, 0)))
            client.complete(0, 0)
            return True
        if request == GET_SPEED:
            client.complete(2, 0)  # USB_SPEED_FULL
            return True
        if request in (SETINTERFACE, SETCONFIGURATION, RESET, CLEAR_HALT, RESETEP):
            client.complete(0, 0)
            return True
        if request in (IOCTL, DISCONNECT_CLAIM):
            client.complete(-1, errno.ENODATA)
            return True
        client.complete(-1, errno.ENOTTY)
        return True

    def _connected(self, key):
        client = self.clients.get(key)
        return client is not None and client.get_connected()

    @staticmethod
    def _int_arg(arg):
        raw = bytes(arg.resolve(0, 4).retrieve())
        return struct.unpack_from("<I", raw.ljust(4, b"\0"))[0]

    def _release(self, key, client):
        with self.lock:
            held = self.held.get(key)
            if held and held[0] is client:
                del self.held[key]
                client.complete(-1, errno.EAGAIN)

    def _interface_of(self, endpoint):
        for i, interface in enumerate(self.profile.interfaces):
            if endpoint in (interface.bulk_in, interface.bulk_out, interface.interrupt_in):
                return i
        return None

    def _control(self, setup):
        """Standard requests on endpoint 0 → (negative errno status or 0, reply bytes)."""
        request_type, request, value, index, length = struct.unpack("<BBHHH", setup)
        if request_type == 0x80 and request == 6:  # GET_DESCRIPTOR
            kind, number = value >> 8, value & 0xFF
            if kind == 1:
                return 0, self.profile.device_descriptor()[:length]
            if kind == 2:
                return 0, self.profile.config_descriptor()[:length]
            if kind == 3:
                if number == 0:
                    return 0, bytes([4, 3, 0x09, 0x04])[:length]
                table = self.profile.strings()
                if number > len(table) or not table[number - 1]:
                    return -errno.EPIPE, b""
                text = table[number - 1].encode("utf-16-le")
                return 0, (bytes([2 + len(text), 3]) + text)[:length]
            return -errno.EPIPE, b""
        if request_type == 0x80 and request == 0:  # GET_STATUS
            return 0, b"\x00\x00"[:length]
        if request_type & 0x60 == 0x20:  # CCID class requests (GET_CLOCK_FREQUENCIES, …): not supported
            return -errno.EPIPE, b""
        return 0, b""
