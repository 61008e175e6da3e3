"""USB reader profiles: the descriptors an emulated reader presents (docs/tags-and-readers.md §5).

Every value is cited. CCID class descriptors come from libccid's reader descriptor dumps
(LudovicRousseau/CCID, readers/<name>.txt: the output of its parse tool on the real reader);
device-level values (bcdUSB, bMaxPacketSize0, endpoint addresses and sizes) from published
`lsusb -v` dumps where one exists. Where no dump was found the value is marked "not load-bearing":
the drivers under test do not read it.
"""
import struct
from dataclasses import dataclass, field


@dataclass(frozen=True)
class CCIDClass:
    """The 54-byte CCID class descriptor (CCID 1.1 §5.1), fields as libccid's parse tool prints them."""
    bcd_ccid: int
    voltage: int
    protocols: int
    default_clock_khz: int
    max_clock_khz: int
    data_rate: int
    max_data_rate: int
    max_ifsd: int
    mechanical: int
    features: int
    max_message: int
    class_get_response: int
    class_envelope: int

    def encode(self) -> bytes:
        return struct.pack("<BBHBBIIIBIIBIIIIIBBHBB", 0x36, 0x21, self.bcd_ccid, 0, self.voltage, self.protocols,
                           self.default_clock_khz, self.max_clock_khz, 0, self.data_rate, self.max_data_rate, 0,
                           self.max_ifsd, 0, self.mechanical, self.features, self.max_message,
                           self.class_get_response, self.class_envelope, 0, 0, 1)


@dataclass(frozen=True)
class Interface:
    """One interface: CCID (class 0x0B, with its class descriptor) or vendor-specific (0xFF)."""
    name: str | None
    ccid: CCIDClass | None
    bulk_out: int
    bulk_in: int
    interrupt_in: int | None
    packet_size: int = 64


@dataclass(frozen=True)
class Profile:
    key: str
    vendor: int
    product: int
    bcd_device: int
    manufacturer: str
    product_name: str
    interfaces: tuple[Interface, ...]
    serial: str | None = None
    bcd_usb: int = 0x0200
    max_packet0: int = 64
    # How the reader answers what is not the card's: "acr122u" (pseudo-APDUs FF 00 …, PN532 direct
    # transmit), "acs-escape" (E0 00 00 … escape commands), "pn533" (raw PN533 frames on bulk), None.
    firmware: str = ""
    kind: str | None = None
    extra: dict = field(default_factory=dict)

    def with_bcd(self, bcd: int) -> "Profile":
        return Profile(self.key, self.vendor, self.product, bcd, self.manufacturer, self.product_name,
                       self.interfaces, self.serial, self.bcd_usb, self.max_packet0,
                       self.firmware.replace(self.firmware[-3:], f"{bcd >> 8:X}{bcd & 0xFF:02X}") if self.kind == "acr122u" else self.firmware,
                       self.kind, self.extra)

    # ---- descriptors ----
    def strings(self) -> list[str]:
        """String descriptor table: index 1 manufacturer, 2 product, 3 serial, then interface names."""
        table = [self.manufacturer, self.product_name, self.serial or ""]
        for i in self.interfaces:
            if i.name:
                table.append(i.name)
        return table

    def string_index(self, text: str | None) -> int:
        if not text:
            return 0
        return self.strings().index(text) + 1

    def device_descriptor(self) -> bytes:
        return struct.pack("<BBHBBBBHHHBBBB", 18, 1, self.bcd_usb, 0, 0, 0, self.max_packet0, self.vendor,
                           self.product, self.bcd_device, 1, 2, 3 if self.serial else 0, 1)

    def config_descriptor(self) -> bytes:
        body = b""
        for number, i in enumerate(self.interfaces):
            endpoints = [(i.bulk_out, 2, i.packet_size, 0), (i.bulk_in, 2, i.packet_size, 0)]
            if i.interrupt_in is not None:
                endpoints.append((i.interrupt_in, 3, 8 if i.ccid else 64, 0x10 if i.ccid else 1))
            cls = 0x0B if i.ccid else 0xFF
            body += struct.pack("<BBBBBBBBB", 9, 4, number, 0, len(endpoints), cls, 0, 0, self.string_index(i.name))
            if i.ccid:
                body += i.ccid.encode()
            for address, attributes, size, interval in endpoints:
                body += struct.pack("<BBBBHB", 7, 5, address, attributes, size, interval)
        return struct.pack("<BBHBBBBB", 9, 2, 9 + len(body), len(self.interfaces), 1, 0, 0x80, 50) + body

    def descriptors(self) -> bytes:
        return self.device_descriptor() + self.config_descriptor()


# ACS ACR122U: readers/ACR122U_PICC.txt (bcdDevice 2.06 there; 2.07 in the published lsusb dumps of
# MiczFlor/RPi-Jukebox-RFID #27 and nfc-tools/libnfc #646, which also give bcdUSB 1.10,
# bMaxPacketSize0 8, interrupt IN 0x81 (8 bytes), bulk OUT 0x02 / IN 0x82 (64 bytes), no iInterface
# and no serial). Firmware string "ACR122U207" (ACR122U API v2.04 §4.3 "Get firmware version").
ACR122U_CCID = CCIDClass(bcd_ccid=0x0100, voltage=0x07, protocols=0x0002, default_clock_khz=4000,
                         max_clock_khz=4000, data_rate=10752, max_data_rate=250000, max_ifsd=256,
                         mechanical=0, features=0x00020040, max_message=271,
                         class_get_response=0, class_envelope=0)
ACR122U = Profile("acr122u", 0x072F, 0x2200, 0x0207, "ACS", "ACR122U PICC Interface",
                  (Interface(None, ACR122U_CCID, 0x02, 0x82, 0x81),), bcd_usb=0x0110, max_packet0=8,
                  firmware="ACR122U207", kind="acr122u")

# ACS ACR1252U (072f:223b "ACR1252 Dual Reader"): readers/ACS_ACR1252_Dual_Reader.txt, two CCID
# interfaces: PICC (short and extended APDUs, 522-byte messages) and SAM (T=0/T=1, 288 bytes).
# Endpoint addresses not load-bearing (libccid takes them from the descriptors).
ACR1252_PICC = CCIDClass(bcd_ccid=0x0100, voltage=0x07, protocols=0x0002, default_clock_khz=4000,
                         max_clock_khz=4000, data_rate=10752, max_data_rate=250000, max_ifsd=254,
                         mechanical=0, features=0x00040040, max_message=522,
                         class_get_response=0, class_envelope=0)
ACR1252_SAM = CCIDClass(bcd_ccid=0x0110, voltage=0x01, protocols=0x0003, default_clock_khz=3420,
                        max_clock_khz=3420, data_rate=9193, max_data_rate=213750, max_ifsd=254,
                        mechanical=0, features=0x000204BA, max_message=288,
                        class_get_response=0, class_envelope=0)
ACR1252U = Profile("acr1252u", 0x072F, 0x223B, 0x0100, "ACS", "ACR1252 Dual Reader",
                   (Interface("ACR1252 Dual Reader PICC", ACR1252_PICC, 0x02, 0x82, 0x81),
                    Interface("ACR1252 Dual Reader SAM", ACR1252_SAM, 0x04, 0x84, 0x83)),
                   firmware="ACR1252U_V1.05", kind="acs-escape")

# HID OMNIKEY 5022 (076b:5022): readers/HID_Global_OMNIKEY_5022_Smart_Card_Reader.txt.
OMNIKEY_CCID = CCIDClass(bcd_ccid=0x0110, voltage=0x07, protocols=0x0003, default_clock_khz=4800,
                         max_clock_khz=4800, data_rate=12903, max_data_rate=825807, max_ifsd=254,
                         mechanical=0, features=0x000404BA, max_message=520,
                         class_get_response=0xFF, class_envelope=0xFF)
OMNIKEY5022 = Profile("omnikey5022", 0x076B, 0x5022, 0x0100, "HID Global", "OMNIKEY 5022 Smart Card Reader",
                      (Interface("OMNIKEY 5022 Smart Card Reader", OMNIKEY_CCID, 0x02, 0x82, 0x81),))

# Identiv uTrust 3700 F (04e6:5790): readers/Identiv_uTrust_3700_F_CL_Reader.txt.
UTRUST_CCID = CCIDClass(bcd_ccid=0x0110, voltage=0x01, protocols=0x0003, default_clock_khz=4800,
                        max_clock_khz=12000, data_rate=12903, max_data_rate=412903, max_ifsd=1024,
                        mechanical=0x00000001, features=0x000404BE, max_message=1034,
                        class_get_response=0xFF, class_envelope=0xFF)
UTRUST3700F = Profile("utrust3700f", 0x04E6, 0x5790, 0x0102, "Identiv", "uTrust 3700 F CL Reader",
                      (Interface("uTrust 3700 F CL Reader", UTRUST_CCID, 0x02, 0x82, 0x81),))

# SCM SCL3711 (04e6:5591): a PN533 behind vendor-class bulk endpoints, driven by libnfc's pn53x_usb
# (drivers/pn53x_usb.c lists 04e6:5591 "SCM Micro / SCL3711-NFC&RW" and takes the first bulk IN/OUT
# pair of interface 0, so the addresses are not load-bearing).
SCL3711 = Profile("scl3711", 0x04E6, 0x5591, 0x0100, "SCM Micro", "SCL3711-NFC&RW",
                  (Interface(None, None, 0x04, 0x84, None),), firmware="", kind="pn533")

PROFILES = {p.key: p for p in (ACR122U, ACR1252U, OMNIKEY5022, UTRUST3700F, SCL3711)}
