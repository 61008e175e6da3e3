"""What an emulated reader answers on its endpoints: CCID messages (CCID 1.1 §6) on a CCID
interface, raw PN53x frames on a PN533 reader's vendor-class bulk pair (docs/tags-and-readers.md §5).

Bulk OUT data in, response messages out (queued for the bulk IN endpoint); card events out on
the interrupt endpoint as RDR_to_PC_NotifySlotChange `50 03` (card in) / `50 02` (card out).
"""
import struct
import threading

from cards import PN53xChipPort, VPCDCardPort, pn53x_frame

# CCID message types (CCID 1.1 §6.1, §6.2).
PC_TO_RDR = {0x62: "IccPowerOn", 0x63: "IccPowerOff", 0x65: "GetSlotStatus", 0x6F: "XfrBlock",
             0x6C: "GetParameters", 0x6D: "ResetParameters", 0x61: "SetParameters", 0x6B: "Escape",
             0x6E: "IccClock", 0x6A: "T0APDU", 0x69: "Secure", 0x71: "Mechanical", 0x72: "Abort",
             0x73: "SetDataRateAndClockFrequency"}
DATA_BLOCK, SLOT_STATUS, PARAMETERS, ESCAPE, DATA_RATE = 0x80, 0x81, 0x82, 0x83, 0x84
ICC_MUTE, HW_ERROR, CMD_NOT_SUPPORTED = 0xFE, 0xFB, 0x00
T1_PARAMETERS = bytes([0x11, 0x10, 0x00, 0x15, 0x00, 0xFE, 0x00])


class Slot:
    """One CCID slot and the card in its field."""

    def __init__(self, card: VPCDCardPort | None):
        self.card = card
        self.powered = False

    @property
    def present(self) -> bool:
        return self.card is not None and self.card.present

    def status(self) -> int:
        """bmICCStatus: 0 active, 1 present and inactive, 2 absent."""
        if not self.present:
            return 2
        return 0 if self.powered else 1


class Faults:
    """Injected by the control channel; each is consumed or cleared explicitly."""

    def __init__(self):
        self.stall = set()          # endpoint addresses whose next URB ends -EPIPE
        self.hw_error = 0           # next N XfrBlock/Escape answered bStatus 0x40, HW_ERROR
        self.mute = []              # APDU prefixes never answered (the bulk IN URB stays pending)
        self.refuse = {}            # APDU prefix → status word answered instead of the card's
        self.yank = []              # APDU prefixes on which the reader is unplugged, unanswered


class EmulatedReader:
    def __init__(self, profile, name: str, card_port: int | None, chip_path: str | None):
        self.profile = profile
        self.name = name
        self.lock = threading.RLock()
        self.faults = Faults()
        self.counts = {}
        self.on_interrupt = None  # set by the USB layer: (endpoint, bytes) → None
        self.on_yank = None       # set by the emulator: unplugs this reader (called on a new thread)
        self.chip = PN53xChipPort(chip_path) if chip_path else None
        card = VPCDCardPort(card_port, self._card_changed) if card_port else None
        self.slots = [Slot(card if i == 0 else None) for i, _ in enumerate(profile.interfaces)]

    def count(self, key: str):
        self.counts[key] = self.counts.get(key, 0) + 1

    # ---- card events ----
    def _card_changed(self, present: bool):
        with self.lock:
            self.slots[0].powered = False
            self.count("card-in" if present else "card-out")
            interface = self.profile.interfaces[0]
            if interface.interrupt_in is not None and self.on_interrupt:
                self.count("NotifySlotChange")
                self.on_interrupt(interface.interrupt_in, bytes([0x50, 0x03 if present else 0x02]))

    def interrupt_state(self, interface_index: int) -> bytes:
        """The slot state sent on the interrupt endpoint when a URB waits and nothing changed."""
        return bytes([0x50, 0x01 if self.slots[interface_index].present else 0x00])

    # ---- bulk OUT → bulk IN ----
    def bulk_out(self, interface_index: int, data: bytes) -> list[bytes] | None:
        """The messages to queue on the bulk IN endpoint; None = never answered (a muted command)."""
        with self.lock:
            if self.profile.kind == "pn533":
                return self._pn533(data)
            return self._ccid(self.slots[interface_index], data)

    def _pn533(self, frame: bytes) -> list[bytes]:
        self.count("pn53x-frame")
        if self.chip is None:
            return []
        frames = self.chip.frames(frame)
        out = []
        for f in frames:
            # The chip is a PN532 emulator; a PN533 reports IC 0x33 (PN533 user manual §8.2.2
            # GetFirmwareVersion: IC, Ver, Rev, Support): the firmware answer is rewritten.
            if len(f) == 12 and f[5:7] == b"\xd5\x03":
                f = pn53x_frame(bytes([0xD5, 0x03, 0x33, 0x02, 0x07, 0x07]))
            out.append(f)
        return out

    def _ccid(self, slot: Slot, msg: bytes) -> list[bytes] | None:
        if len(msg) < 10:
            return []
        kind, length, slot_no, seq = msg[0], struct.unpack_from("<I", msg, 1)[0], msg[5], msg[6]
        body = msg[10:10 + length]
        self.count(PC_TO_RDR.get(kind, f"0x{kind:02X}"))

        def reply(rtype, status, error=0, data=b"", specific=0):
            return [struct.pack("<BIBBBBB", rtype, len(data), slot_no, seq, status, error, specific) + data]

        icc = slot.status()
        if kind == 0x62:  # IccPowerOn
            atr = slot.card.power_on() if slot.present else None
            if atr is None:
                return reply(DATA_BLOCK, 0x40 | 2, ICC_MUTE)
            slot.powered = True
            return reply(DATA_BLOCK, 0, 0, atr)
        if kind == 0x63:  # IccPowerOff
            if slot.present and slot.powered:
                slot.card.power_off()
            slot.powered = False
            return reply(SLOT_STATUS, slot.status(), 0, b"", 0)
        if kind == 0x65:  # GetSlotStatus
            return reply(SLOT_STATUS, icc, 0, b"", 0)
        if kind in (0x6C, 0x6D, 0x61):  # Get/Reset/SetParameters: T=1, echoing what was set
            data = body if kind == 0x61 and len(body) == 7 else T1_PARAMETERS
            return reply(PARAMETERS, icc, 0, data, 1)
        if kind == 0x73:
            return reply(DATA_RATE, icc, 0, struct.pack("<II", 4000, 10752))
        if kind in (0x6F, 0x6B):
            rtype = DATA_BLOCK if kind == 0x6F else ESCAPE
            if self.faults.hw_error > 0:
                self.faults.hw_error -= 1
                return reply(rtype, 0x40 | icc, HW_ERROR)
            for prefix in self.faults.yank:
                if body.startswith(prefix) and self.on_yank:
                    self.count("yanked")
                    self.faults.yank.remove(prefix)
                    threading.Thread(target=self.on_yank, daemon=True).start()
                    return None
            for prefix in self.faults.mute:
                if body.startswith(prefix):
                    self.count("muted")
                    return None
            for prefix, sw in self.faults.refuse.items():
                if body.startswith(prefix):
                    return reply(rtype, icc, 0, sw)
            answer = self._reader_command(body, escape=kind == 0x6B)
            if answer is None and kind == 0x6F and slot.present and slot.powered:
                answer = slot.card.transmit(body)
            if answer is None:
                if kind == 0x6B:
                    return reply(rtype, 0x40 | icc, CMD_NOT_SUPPORTED)
                return reply(rtype, 0x40 | icc, ICC_MUTE)
            return reply(rtype, icc, 0, answer)
        return reply(SLOT_STATUS, 0x40 | icc, CMD_NOT_SUPPORTED)

    def _reader_command(self, apdu: bytes, escape: bool) -> bytes | None:
        """What the reader's firmware answers itself (no card needed), or None for the card."""
        kind = self.profile.kind
        if kind == "acr122u" and apdu[:2] == b"\xff\x00":
            p1 = apdu[2] if len(apdu) > 2 else None
            # ACR122U API v2.04: §4.3 FF 00 48 00 00 firmware string (no status word); §6.2
            # FF 00 40 P2 04 … LED/buzzer → 90 LEDstate; FF 00 51 PICC operating parameter;
            # FF 00 00 00 Lc D4 … direct transmit to the PN532, answered even with no card.
            if p1 == 0x48:
                return self.profile.firmware.encode()
            if p1 == 0x40:
                self.count("led")
                return bytes([0x90, 0x00])
            if p1 == 0x51:
                return bytes([0x90, 0xFF])
            if p1 == 0x00 and len(apdu) > 6 and apdu[5] == 0xD4:
                slot = self.slots[0]
                if slot.present:
                    if not slot.powered:
                        slot.card.power_on()
                        slot.powered = True
                    return slot.card.transmit(apdu)
                if self.chip is not None:
                    self.count("pn532-direct")
                    answer = self.chip.command(apdu[5:5 + apdu[4]])
                    return (answer + b"\x90\x00") if answer else bytes([0x63, 0x00])
                return bytes([0x63, 0x00])
        if kind == "acs-escape" and escape and apdu[:4] in (b"\xe0\x00\x00\x18", b"\xe0\x00\x00\x28", b"\xe0\x00\x00\x29"):
            # ACR1252U reference manual §5.2 (escape commands): 18 firmware version, 28 buzzer, 29 LED.
            if apdu[3] == 0x18:
                fw = self.profile.firmware.encode()
                return bytes([0xE1, 0, 0, 0, len(fw)]) + fw
            self.count("led" if apdu[3] == 0x29 else "buzzer")
            return bytes([0xE1, 0, 0, 0, 1, apdu[5] if len(apdu) > 5 else 0])
        return None
