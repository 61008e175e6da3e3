#!/usr/bin/env python3
"""Writes the seed corpora Fuzz/corpus/<target>/seed-* from the project's test vectors.

Run from anywhere: `python3 Fuzz/make-seeds.py`. Seeds are small files named by content; the
script only adds and replaces `seed-*` files, so regression inputs (`regression-*`) and
corpus files kept from fuzzing runs stay. The vectors are copied from the test suites named
in each section (Tests/…), so the fuzzers start from inputs the tests already know are valid
or almost valid.
"""
import hashlib
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def h(text):
    return bytes.fromhex(text.replace(" ", ""))


def write(target, data):
    d = os.path.join(ROOT, target)
    os.makedirs(d, exist_ok=True)
    name = "seed-" + hashlib.sha1(data).hexdigest()[:12]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# ---------------------------------------------------------------- NDEF (Tests/NDEFTests)
long_payload = bytes(range(256))
ndef_vectors = [
    h("D0 00 00"),
    h("D1 01 0C 55 04") + b"example.com",
    h("C2 03 00 00 01 00") + b"a/b" + long_payload,
    h("CA 03 00 00 01 00 02") + b"a/b" + b"id" + long_payload,
    h("D9 01 02 01 55 61 04 61"),
    h("91 01 02 55 05 31 15 00 02 AA BB 50 00 00"),
    h("D1 01 03 54 02 65 6E"),
    h("D2 0A 02") + b"text/plain" + b"hi",
    h("D3 13 00") + b"http://example.com/",
    h("D4 0D 01") + b"example.com:t" + h("01"),
    h("D5 00 01 FF"),
    h("B2 03 03 61 2F 62 41 42 43 36 00 03 44 45 46 56 00 01 47"),
    h("BA 03 04 01 61 2F 62 78 41 42 43 44 56 00 01 45"),
    h("B5 00 01 01 36 00 01 02 56 00 01 03"),
    h("B2 03 02 61 2F 62 41 42 16 00 01 43 55 00 01 09"),
    h("A2 03 00 00 01 00") + b"a/b" + long_payload + h("56 00 2C") + long_payload[:44],
    h("C1 01 00 00 00 02 55 05 31"),
    h("D9 01 02 00 55 05 31"),
    h("B5 00 01 01 36 00 00 56 00 01 02"),
    h("D0 01 01 55 07"),  # relaxed: TNF 0 with content
    h("95 00 00 15 00 00 55 00 00"),
    h("D1 01 05 54 02 65 6E 68 69"),  # Text "hi", en
    h("D1 01 0B 54 82 65 6E FE FF 00 68 00 69 00"),  # Text UTF-16 with BOM
    h("D1 01 06 54 05 65 6E 2D 55 53 78"),
    h("D1 01 04 55 24 78 2E 6F"),  # reserved URI code
    h("D1 01 04 55 04 61 FF 62"),  # bad UTF-8
    h("D1 02 0E") + b"Sp" + h("D1 01 0A 55 01") + b"nfc.org/x",
    h("D1 02 1B") + b"Sp" + h("91 01 0A 55 01") + b"nfc.org/x" + h("51 01 07 54 02 65 6E 61 62 63"),
    h("D1 02 1F") + b"Sp" + h("91 01 05 55 01 61 2E 62 11 03 01") + b"act" + h("00 11 01 04 73 00 00 01 00 51 01 04 54 02 65 6E"),
    h("D4 0F 13") + b"android.com:pkg" + b"com.example.printer",
    h("D2 09 0B") + b"image/png" + h("89 50 4E 47 0D 0A 1A 0A 00 00 00"),
    # A Zebra tag's message (docs/zebra.md §1, Tests/ZebraPrinterTests).
    h("D1 01 5F 55 01") + b"zebra.com/apps/r/nfc?mE=000000000000&mW=&mB=cc78ab3ebae0&c=ZQ320-A0E02T0-00&s=XXZFJ170700336&v=0",
]
for v in ndef_vectors:
    write("ndef", v)

# ---------------------------------------------------------------- ATR / ATS (Tests/NFCTagsTests/ATRTests.swift)
atrs = [
    "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 01 00 00 00 00 6A",
    "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 02 00 00 00 00 69",
    "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68",
    "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 3A 00 00 00 00 51",
    "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 3D 00 00 00 00 56",
    "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 3B 00 00 00 00 50",
    "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 26 00 00 00 00 4D",
    "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 44 00 00 00 00 2F",
    "3B 80 80 01 01",
    "3B 81 80 01 80 80",
    "3B 88 80 01 00 00 00 00 77 81 81 00 7E",
    "3B F8 13 00 00 81 31 FE 15 59 75 62 69 6B 65 79 34 D4",
    "3B 16 96 41 73 74 72 69 64",
    "3F 65 25 08 36 04 6C 90 00",
    "3B 81 80 11 FE 80 6E",
    "3B 8F 80 01 80 4F 0C A0 00 00 03 07 03 00 03 00 00 00 00 69",
    "3B 8F 80",
    "3B 02 14 50 00",
]
# The atr target: byte 0 bit 0 picks ATR (0) or ATS (1); the rest is the ATR or ATS.
for a in atrs:
    write("atr", b"\x00" + h(a))
ats = ["05 78 80 70 02", "06 75 77 81 02 80", "0B 78 77 94 02 80 73 C8 40 13 00", "01", "02 00",
       "10 78 80 80 02 80 4F 0C A0 00 00 03 06 03 00"]
for a in ats:
    write("atr", b"\x01" + h(a))

# ---------------------------------------------------------------- Zebra URLs (Tests/ZebraPrinterTests)
urls = [
    "http://www.zebra.com/apps/r/nfc?mE=000000000000&mW=&mB=cc78ab3ebae0&c=ZQ320-A0E02T0-00&s=XXZFJ170700336&v=0",
    "http://www.zebra.com/apps/r/nfc?mE=000000000000&mW=ac3fa449af4c&mB=ac3fa449af4d&c=ZQ51-AUN010A-00&s=XXRAJ151700742&v=0",
    "http://www.zebra.com/apps/r/nfc?mE=00074d6c9e65&mW=000000000000&mBL=5cf8218dc99b&c=ZD41H23-D0PE00EZ&s=50J163001771&v=0",
    "http://www.zebra.com/apps/r/nfc?mBL=00225832C75F&mW=000000000000&mE=000000000000&c=QN3-AUBA0E01-00&s=XXQLJ112600422&v=0",
    "http://www.zebra.com.evil.example/apps/r/nfc?mB=cc78ab3ebae0&s=X",
    "http://www.zebra.com/apps/r/nfc?mB=cc78ab3eba&s=XXZFJ170700336",
    "http://zebra.com@evil.example/apps/r/nfc",
    "http://www.zebra.com:80/apps/r/nfc?s=S",
    "https://zebra.com:443/apps/r/nfc?s=S",
    "http://[::1]:80/apps/r/nfc",
    "http://www.zebra.com/apps/r/nfc?z=1&s=SER1&a=x%20y&mB=cc78ab3ebae0&mb=lower&q=&k=a+b",
    "http://zebra.com/apps/r/nfc?mE=&mW=000000000000&mB=00:00:00:00:00:00&mBL=00-00-00-00-00-00&s=S",
    "http://www.zebra.com/apps/r/nfc?mB=cc78ab3ebae0&mBL=cc78ab3ebae1&s=S",
    "http://www.zebra.com/apps/r/nfc?c=&v=&s=S",
    "http://www.zebra.com/apps/r/nfc?&s=AB+C&&v=0&",
    "http://zebra.com/apps/r/nfc?garbage&&%zz",
    "http://www.zebra.com/apps/r/nfc?s=S#frag",
    "HTTPS://WWW.ZEBRA.COM/apps/r/nfc?s=%41%42",
]
# The zebra-url target: byte 0 picks the view (0 URI text, 1 URI record payload, 2 NDEF message).
for u in urls:
    write("zebra-url", b"\x00" + u.encode())
    if u.startswith("http://www."):
        write("zebra-url", b"\x01" + b"\x01" + u[len("http://www."):].encode())
write("zebra-url", b"\x02" + h("D1 01 5F 55 01") + urls[0][len("http://www."):].encode())

# ---------------------------------------------------------------- ~HS replies (Tests/ZebraPrinterTests)
def hs(*lines):
    return b"".join(b"\x02" + l.encode() + b"\x03\r\n" for l in lines)


zq630 = hs("159,1,0,0249,000,0,0,0,000,0,0,0", "000,0,0,0,0,2,6,0,00000000,1,000", "0000,0")
ready = hs("030,0,0,1245,000,0,0,0,000,0,0,0", "001,0,0,0,1,2,6,0,00000000,1,000", "1234,0")
replies = [
    zq630,
    ready,
    hs("999,0,0,9999,999,0,0,0,999,0,0,0", "999,0,0,0,0,2,6,0,99999999,1,999", "9999,1"),
    hs("1,0,0,12,3,0,0,0,0,0,0,0", "4,0,0,0,0,2,6,0,5,1,6", "7,0"),
    hs("030,1,1,1245,000,0,0,0,000,0,1,1", "001,0,1,1,1,2,6,0,00000000,1,000", "1234,0"),
    zq630 + ready,
    zq630[:40],
    b"\r\n" + zq630.replace(b"\r\n", b""),
]
# The host-status target: byte 0 = number of chunk-size bytes (mod 8), then the sizes, then the bytes.
for r in replies:
    write("host-status", b"\x00" + r)
    write("host-status", b"\x03\x05\x01\x20" + r)
# SGD replies ride in the same target: byte 0 bit 7 set = parse as an SGD getvar reply.
for r in [b'"both"\r\n', b'"?"', b'  "1.2.3"  \r\n', b'"unterminated']:
    write("host-status", b"\x80" + r)

# ---------------------------------------------------------------- Type 4 (Tests/NFCTagsTests/Type4*.swift)
OK = h("90 00")


def replies_blob(*rs):
    out = b""
    for r in rs:
        if len(r) >= 0xFF:
            out += b"\xff" + len(r).to_bytes(2, "big") + r
        else:
            out += bytes([len(r)]) + r
    return out


cc_v2 = h("00 0F 20 00 3B 00 34 04 06 E1 04 00 FF 00 00")
cc_v2_small = h("00 0F 20 00 0F 00 0D 04 06 E1 04 00 40 00 00")  # MLe 15, MLc 13: many chunks
cc_v2_ro = h("00 0F 20 00 3B 00 34 04 06 E1 04 00 FF 00 FF")
cc_v1 = h("00 0F 10 00 3B 00 34 04 06 E1 04 08 00 00 00")
cc_v3 = h("00 11 30 00 FF 00 FF 06 08 E1 04 00 01 00 00 00 FF")
msg = h("D1 01 0C 55 04") + b"example.com"
long_msg = h("D2 03 28") + b"a/b" + bytes(range(40))


def filler(head, n, tail):
    """A reply of head + n zero bytes + tail, in the type4 target's `FE` form."""
    return ("FILL", head, n, tail)


def replies_blob_fill(*rs):
    out = b""
    for r in rs:
        if isinstance(r, tuple):
            out += b"\xfe" + r[2].to_bytes(2, "big") + replies_blob(r[1]) + replies_blob(r[3])
        else:
            out += replies_blob(r)
    return out


def message_blob(head, zeros=0):
    return replies_blob(head) + zeros.to_bytes(2, "big")


def read_script(cc, nlen_size, message, mle):
    rs = [OK, OK, cc[:15] + OK]
    if len(cc) == 17:
        rs.append(cc[15:] + OK)
    rs.append(OK)
    data = len(message).to_bytes(nlen_size, "big") + message
    rs.append(data[:mle] + OK)
    data = data[mle:]
    while data:
        rs.append(data[:mle] + OK)
        data = data[mle:]
    return rs


# Byte 0: operation in bits 0-2 (0 read, 1 status, 2 read CC, 3 write, 4 lock, 5-7 CC bytes), bit 3 extended.
write("type4", b"\x00" + replies_blob(*read_script(cc_v2, 2, msg, 0x3B)))
write("type4", b"\x00" + replies_blob(*read_script(cc_v2_small, 2, long_msg, 0x0F)))
write("type4", b"\x08" + replies_blob(*read_script(cc_v3, 4, long_msg, 0xFF)))
write("type4", b"\x00" + replies_blob(OK, OK, cc_v2 + OK, OK, h("00 00") + OK))  # empty message
write("type4", b"\x00" + replies_blob(h("6A 82"), OK, h("6F 00") + OK, cc_v1 + OK, h("6F 00") + OK,
                                      h("00 10") + msg + OK))  # legacy v1
write("type4", b"\x00" + replies_blob(h("6A 82"), h("6A 82")))  # no NDEF application
write("type4", b"\x01" + replies_blob(OK, OK, cc_v2 + OK))
write("type4", b"\x01" + replies_blob(OK, OK, cc_v2_ro + OK))
write("type4", b"\x01" + replies_blob(OK, OK, cc_v3[:15] + OK, cc_v3[15:] + OK))
write("type4", b"\x02" + replies_blob(OK, OK, cc_v2 + OK))
write("type4", b"\x03" + message_blob(msg) + replies_blob(OK, OK, cc_v2 + OK, OK, OK, OK, OK))
write("type4", b"\x03" + message_blob(long_msg) + replies_blob(OK, OK, cc_v2_small + OK, OK, *([OK] * 8)))
write("type4", b"\x0b" + message_blob(long_msg) + replies_blob(OK, OK, cc_v3[:15] + OK, cc_v3[15:] + OK, OK, OK, OK, OK))
write("type4", b"\x03" + message_blob(b"") + replies_blob(OK, OK, cc_v2 + OK, OK, OK))
write("type4", b"\x04" + replies_blob(OK, OK, cc_v2 + OK, OK, h("FF") + OK))
write("type4", b"\x04" + replies_blob(OK, OK, cc_v3[:15] + OK, cc_v3[15:] + OK, OK, h("FF") + OK))
# Mapping 3.0, extended length: a 40000-byte message, so the reads and writes past 7FFF use B1/D7.
cc_v3_big = h("00 11 30 FF FF FF FF 06 08 E1 04 00 01 00 00 00 00")
big = 40000
cc_v3_mlc = h("00 11 30 FF FF 7F FF 06 08 E1 04 00 01 00 00 00 00")  # MLc 7FFF: the second write chunk needs D7
# Read: the first B0 returns 9000h bytes (ENLEN 9C40h), so the rest comes from one B1 at 9000h.
write("type4", b"\x08" + replies_blob_fill(OK, OK, cc_v3_big[:15] + OK, cc_v3_big[15:] + OK, OK,
                                           filler(h("00 00 9C 40"), 0x9000 - 4, OK),
                                           filler(h("53 82 0C 44"), 0x0C44, OK)))
# Write 40000 bytes: NLEN 0, D6 at 4 (7FFFh bytes), D7 at 8003h, then ENLEN.
write("type4", b"\x0b" + message_blob(h("C5 00 00 00 9C 3A"), big - 6)
      + replies_blob(OK, OK, cc_v3_mlc[:15] + OK, cc_v3_mlc[15:] + OK, OK, OK, OK, OK, OK))
for cc in [cc_v2, cc_v3, cc_v1, cc_v2_small, h("00 0F 20 00 3B 00 34 04 06 E1 04 FF FE 00 00"),
           h("00 11 30 00 FF 00 FF 06 08 E1 04 FF FF FF FE 00 00")]:
    write("type4", b"\x05" + cc)

# ---------------------------------------------------------------- Type 2 (Tests/NFCTagsTests/Type2*.swift)
uid_pages = h("04 5A 2C 91 6E 3F 80 00 48 00 00 00")  # pages 0-2: UID, internal byte, static lock 00 00
zebra_msg = h("D1 01 5F 55 01") + urls[0][len("http://www."):].encode()


def ntag(cc, tlvs, size):
    image = uid_pages + h(cc) + tlvs
    return image + bytes(max(0, size - len(image)))


ntag213 = lambda tlvs: ntag("E1 10 12 00", tlvs, 180)
images = [
    ntag213(h("01 03 A0 0C 34 03") + bytes([len(zebra_msg)]) + zebra_msg + h("FE")),
    ntag213(h("03 00 FE")),
    ntag213(h("01 03 A0 0C 34 03 0F") + msg + h("FE")),
    ntag213(h("01 03 A0 10 32 02 03 F0 04 02 03 1E") + bytes(range(1, 13)) + h("AA BB") + bytes(range(13, 31)) + h("CC DD EE FF FE")),
    ntag213(h("02 03 16 02 04 00 AA BB 03 02 D0 00 FE")),
    ntag213(h("00 00 FD 02 AB CD 00 03 03 D0 00 00 FE")),
    ntag213(h("03 FF 00 05 01 02 03 04 05 FE")),
    ntag213(h("FD FF 00 8C") + bytes([0x11]) * 140),
    ntag("E1 10 3E 00", h("03 FF 01 2C") + bytes(300) + h("FE"), 540),   # NTAG215, 3-byte length
    ntag("E1 10 06 00", h("03 03 D0 00 00 FE"), 64),                        # Ultralight
    ntag213(h("01 03 A0 0C 34 03 0F") + msg + h("FE"))[:180],
]
for i, image in enumerate(images):
    write("type2", b"\x01" + image)   # raw commands, NTAG213 version
    if i < 4:
        write("type2", b"\x00" + image)                 # no raw commands (PC/SC pseudo-APDUs)
        write("type2", b"\x09" + image)                 # GET_VERSION refused
        write("type2", b"\x11" + replies_blob(zebra_msg) + b"\x03" + image)   # write, torn at the 4th page
        write("type2", b"\x11" + replies_blob(msg) + b"\xff" + image)         # write, no tear
        write("type2", b"\x21" + b"\x01" + image)      # lock, torn at the 2nd page
        write("type2", b"\x21" + b"\xff" + image)      # lock
write("type2", b"\x03" + images[8])
write("type2", b"\x07" + h("00 04 03 01 01 00 0B 03") + images[9])
write("type2", b"\x49" + images[9])   # GET_VERSION refused, Ultralight-sized
write("type2", b"\x40" + ntag("E1 10 12 00", h("03 30") + bytes([0x41]) * 0x30 + h("FE"), 64))  # CC larger than the chip

print("seeds written under", ROOT, file=sys.stderr)
