#!/usr/bin/python3
"""USB-level reader emulator: readers that exist only as umockdev's fake sysfs/udev plus an ioctl
handler, so unmodified pcscd + libccid and libnfc's USB drivers drive them (docs/tags-and-readers.md §5).

    usb-reader-emulator.py --control SOCKET --reader PROFILE[,card=PORT][,chip=PTY][,bcd=HEX][,name=N] …

Prints `UMOCKDEV_DIR=<testbed>` then `ready` on stdout. Clients run with
LD_PRELOAD=libumockdev-preload.so.0 and that UMOCKDEV_DIR. Profiles: see profiles.py.
  card=PORT  the card: vpcd protocol on 127.0.0.1:PORT (`nfctap emulate --vpcd 127.0.0.1:PORT`);
  chip=PTY   the PN532 behind the reader (`nfctap emulate --pn532-pty --link PTY`);
  bcd=HEX    bcdDevice (firmware release), e.g. 0205 for an ACR122U libccid refuses;
  node=file|fifo  the /dev/bus/usb node (usbdevfs.py): fifo by default, file for libnfc's readers.

Control channel (one command per line on the Unix socket SOCKET; answer `ok …` or `error …`):
  list | plug PROFILE[,OPTIONS] (a new reader) | unplug N | replug N | remove N (card out, kept out) | tap N (card may come back)
  hide N | show N (a connected card leaves / enters the field, for timing taps)
  stall N EP (next URB on endpoint EP, hex, ends -EPIPE) | hwerror N [COUNT]
  mute N HEXPREFIX (commands starting so never answered) | yank N HEXPREFIX (unplugged on such a command) | refuse N HEXPREFIX SW | clear N
  counts N (JSON of the reader's exchange counts) | reset-counts N | pid | quit
"""
import argparse
import json
import os
import signal
import socket
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gi  # noqa: E402

gi.require_version("UMockdev", "1.0")
from gi.repository import GLib, UMockdev  # noqa: E402

from profiles import PROFILES  # noqa: E402
from reader import EmulatedReader  # noqa: E402
from usbdevfs import DeviceHandler  # noqa: E402


class Plugged:
    """One reader on the fake bus: its sysfs entries, node and ioctl handler."""

    def __init__(self, testbed, reader, port_number):
        self.testbed = testbed
        self.reader = reader
        self.port_number = port_number
        self.devnum = 0
        self.syspaths = []
        self.handler = None
        self.gone = []

    def plug(self, devnum):
        p = self.reader.profile
        self.devnum = devnum
        node = f"/dev/bus/usb/001/{devnum:03d}"
        name = f"usb1/1-{self.port_number}"
        attributes = ["busnum", "1", "devnum", str(devnum), "idVendor", f"{p.vendor:04x}",
                      "idProduct", f"{p.product:04x}", "bcdDevice", f"{p.bcd_device:04x}", "speed", "12",
                      "bConfigurationValue", "1", "bNumConfigurations", "1",
                      "bNumInterfaces", f"{len(p.interfaces):2d}", "bMaxPacketSize0", str(p.max_packet0),
                      "manufacturer", p.manufacturer, "product", p.product_name, "devpath", str(self.port_number),
                      "maxchild", "0", "version", " 2.00"]
        if p.serial:
            attributes += ["serial", p.serial]
        properties = ["DEVNAME", node, "DEVTYPE", "usb_device", "BUSNUM", "001", "DEVNUM", f"{devnum:03d}",
                      "PRODUCT", f"{p.vendor:x}/{p.product:x}/{p.bcd_device:x}", "TYPE", "0/0/0",
                      "MAJOR", "189", "MINOR", str(devnum - 1), "DRIVER", "usb"]
        device = self.testbed.add_device("usb", name, None, attributes, properties)
        self.testbed.set_attribute_binary(device, "descriptors", p.descriptors())
        self.syspaths = [device]
        # (The interface is named by its full path: umockdev 0.17's parent check looks outside the testbed.)
        for number, interface in enumerate(p.interfaces):
            cls = 0x0B if interface.ccid else 0xFF
            attrs = ["bInterfaceNumber", f"{number:02x}", "bInterfaceClass", f"{cls:02x}",
                     "bInterfaceSubClass", "00", "bInterfaceProtocol", "00", "bAlternateSetting", " 0",
                     "bNumEndpoints", f"{3 if interface.interrupt_in is not None else 2:02x}"]
            if interface.name:
                attrs += ["interface", interface.name]
            props = ["DEVTYPE", "usb_interface", "INTERFACE", f"{cls}/0/0", "TYPE", "0/0/0",
                     "PRODUCT", f"{p.vendor:x}/{p.product:x}/{p.bcd_device:x}"]
            self.syspaths.append(self.testbed.add_device("usb", f"{name}/1-{self.port_number}:1.{number}", None, attrs, props))
        path = self.testbed.get_root_dir() + node
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if os.path.lexists(path):
            os.unlink(path)
        fifo_fd = None
        if self.reader.node == "fifo":
            # libusb-1.0 reads the descriptors from sysfs; the fifo carries only the poll state.
            os.mkfifo(path)
            fifo_fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
        else:
            # libusb-0.1 (libnfc) reads the descriptors from the node itself.
            with open(path, "wb") as f:
                f.write(p.descriptors())
        self.handler = DeviceHandler(self.reader, lambda: None, fifo_fd)
        self.handler._sync_poll()
        self.testbed.attach_ioctl(node, self.handler.base)
        # Hotplug: udev's "add" for the device, then its interfaces (pcscd listens to the interfaces).
        for syspath in self.syspaths:
            self.testbed.uevent(syspath, "add")

    def unplug(self):
        if self.handler is None:
            return
        self.handler.unplug()
        # Interfaces before the device: removing the device first makes a later re-add abort.
        for syspath in reversed(self.syspaths):
            self.testbed.uevent(syspath, "remove")
            self.testbed.remove_device(syspath)
        # The node's ioctl handler stays attached, answering ENODEV as a kernel does for a device
        # that is gone (detaching it cuts the clients' sockets, which umockdev's preload cannot
        # survive); a replug gets a new device number and node.
        self.gone.append(self.handler)
        self.syspaths = []
        self.handler = None


def parse_reader(text, index):
    parts = text.split(",")
    options = dict(p.split("=", 1) for p in parts[1:])
    profile = PROFILES[parts[0]]
    if "bcd" in options:
        profile = profile.with_bcd(int(options["bcd"], 16))
    name = options.get("name", parts[0])
    card = int(options["card"]) if "card" in options else None
    reader = EmulatedReader(profile, name, card, options.get("chip"))
    # The node: a fifo (no busy-spin for libusb-1.0) unless a libusb-0.1 client (libnfc) must read it.
    reader.node = options.get("node", "file" if profile.kind == "pn533" else "fifo")
    return reader, index + 1


class Emulator:
    def __init__(self, readers):
        self.testbed = UMockdev.Testbed.new()
        self.next_devnum = 2
        self.plugged = {}
        for index, reader in enumerate(readers):
            p = Plugged(self.testbed, reader, index + 1)
            p.plug(self._devnum())
            self.plugged[reader.name] = p

    def _devnum(self):
        n = self.next_devnum
        self.next_devnum += 1
        return n

    def command(self, line):
        words = line.split()
        if not words:
            return "error empty command"
        verb, args = words[0], words[1:]
        if verb == "pid":
            return f"ok {os.getpid()}"
        if verb == "list":
            return "ok " + json.dumps({n: {"profile": p.reader.profile.key, "devnum": p.devnum,
                                           "plugged": p.handler is not None,
                                           "card": p.reader.slots[0].present}
                                       for n, p in self.plugged.items()})
        if verb == "plug" and len(args) == 1:
            reader, _ = parse_reader(args[0], 0)
            if reader.name in self.plugged:
                return f"error {reader.name} exists"
            p = Plugged(self.testbed, reader, len(self.plugged) + 1)
            p.plug(self._devnum())
            self.plugged[reader.name] = p
            return f"ok {p.devnum}"
        if verb == "quit":
            os.kill(os.getpid(), signal.SIGTERM)
            return "ok"
        if not args or args[0] not in self.plugged:
            return f"error unknown reader {args[0] if args else ''}"
        p = self.plugged[args[0]]
        reader, faults = p.reader, p.reader.faults
        with reader.lock:
            if verb == "unplug":
                p.unplug()
            elif verb == "replug":
                if p.handler is None:
                    p.plug(self._devnum())
            elif verb == "remove":
                if reader.slots[0].card:
                    reader.slots[0].card.remove(refuse=True)
            elif verb == "tap":
                if reader.slots[0].card:
                    reader.slots[0].card.allow()
            elif verb in ("hide", "show"):
                if reader.slots[0].card:
                    reader.slots[0].card.hide(verb == "hide")
            elif verb == "stall" and len(args) == 2:
                faults.stall.add(int(args[1], 16))
            elif verb == "hwerror":
                faults.hw_error = int(args[1]) if len(args) > 1 else 1
            elif verb == "mute" and len(args) == 2:
                faults.mute.append(bytes.fromhex(args[1]))
            elif verb == "yank" and len(args) == 2:
                faults.yank.append(bytes.fromhex(args[1]))
                reader.on_yank = lambda: self.command(f"unplug {reader.name}")
            elif verb == "refuse" and len(args) == 3:
                faults.refuse[bytes.fromhex(args[1])] = bytes.fromhex(args[2])
            elif verb == "clear":
                reader.faults.__init__()
            elif verb == "counts":
                return "ok " + json.dumps(reader.counts, sort_keys=True)
            elif verb == "reset-counts":
                reader.counts.clear()
            else:
                return f"error unknown command {line.strip()}"
        return "ok"


def serve_control(path, emulator):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(8)

    def client(conn):
        with conn, conn.makefile("rw") as f:
            for line in f:
                try:
                    answer = emulator.command(line)
                except Exception as exc:  # an answer, not a dead control channel
                    answer = f"error {exc!r}"
                f.write(answer + "\n")
                f.flush()

    while True:
        conn, _ = server.accept()
        threading.Thread(target=client, args=(conn,), daemon=True).start()


def main():
    # The testbed's uevents (hotplug after start) go through libudev, which must see the testbed:
    # the emulator runs under umockdev's preload too (inactive until the testbed sets UMOCKDEV_DIR).
    preload = "libumockdev-preload.so.0"
    if preload not in os.environ.get("LD_PRELOAD", "") and os.environ.get("NFCTAP_USB_NO_PRELOAD") != "1":
        os.environ["LD_PRELOAD"] = (os.environ.get("LD_PRELOAD", "") + " " + preload).strip()
        os.environ.pop("UMOCKDEV_DIR", None)
        os.execv(sys.executable, [sys.executable] + sys.argv)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--control", required=True)
    parser.add_argument("--reader", action="append", default=[])
    args = parser.parse_args()
    readers, index = [], 0
    for text in args.reader:
        reader, index = parse_reader(text, index)
        readers.append(reader)
    emulator = Emulator(readers)
    threading.Thread(target=serve_control, args=(args.control, emulator), daemon=True).start()
    print(f"UMOCKDEV_DIR={emulator.testbed.get_root_dir()}", flush=True)
    print("ready", flush=True)
    loop = GLib.MainLoop()
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGINT, loop.quit)
    loop.run()
    for p in emulator.plugged.values():
        p.handler = None


if __name__ == "__main__":
    main()
