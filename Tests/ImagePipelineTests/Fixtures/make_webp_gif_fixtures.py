#!/usr/bin/env python3
"""Writes the WebP and GIF test images next to this script (committed; rerun only to change
them). Needs Debian's libwebp7 (the encoder, through ctypes); GIF is written here (LZW).
Known images have flat quadrants, as make_fixtures.py's, so decoded colours are easy to check."""
import ctypes
import struct

COLOURS = [(220, 20, 20), (20, 200, 40), (30, 40, 210), (250, 250, 250)]


def quadrant_index(x, y, width, height):
    return (1 if x >= width // 2 else 0) + (2 if y >= height // 2 else 0)


def rgba(width, height, colour=None):
    out = bytearray()
    for y in range(height):
        for x in range(width):
            out += bytes(colour or COLOURS[quadrant_index(x, y, width, height)]) + b"\xff"
    return bytes(out)


webp = ctypes.CDLL("libwebp.so.7")
webp.WebPEncodeRGBA.restype = ctypes.c_size_t
webp.WebPEncodeLosslessRGBA.restype = ctypes.c_size_t


def encode_webp(width, height, pixels, lossless=False):
    output = ctypes.POINTER(ctypes.c_uint8)()
    if lossless:
        size = webp.WebPEncodeLosslessRGBA(pixels, width, height, width * 4, ctypes.byref(output))
    else:
        size = webp.WebPEncodeRGBA(pixels, width, height, width * 4, ctypes.c_float(95), ctypes.byref(output))
    data = ctypes.string_at(output, size)
    webp.WebPFree(output)
    return data


def chunk(kind, payload):
    return kind + struct.pack("<I", len(payload)) + payload + (b"\0" if len(payload) % 2 else b"")


def animated_webp(width, height, frames):
    """An animated WebP by hand: VP8X (animation flag), ANIM, then an ANMF per frame around
    the frame's own bitstream chunks (the simple file minus its RIFF header)."""
    body = chunk(b"VP8X", struct.pack("<B3s", 0x02, b"\0\0\0") + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little"))
    body += chunk(b"ANIM", struct.pack("<IH", 0xFFFFFFFF, 0))
    for (x, y, w, h, pixels) in frames:
        simple = encode_webp(w, h, pixels, lossless=True)
        bitstream = simple[12:]  # the VP8L chunk
        header = (x // 2).to_bytes(3, "little") + (y // 2).to_bytes(3, "little") + (w - 1).to_bytes(3, "little") + (h - 1).to_bytes(3, "little")
        header += (100).to_bytes(3, "little") + b"\x00"
        body += chunk(b"ANMF", header + bitstream)
    return b"RIFF" + struct.pack("<I", 4 + len(body)) + b"WEBP" + body


def lzw(indices, minimum):
    """GIF's LZW: codes of growing width, packed least significant bit first."""
    clear, end = 1 << minimum, (1 << minimum) + 1
    table = {bytes([i]): i for i in range(clear)}
    width, next_code = minimum + 1, end + 1
    bits, count, out = 0, 0, bytearray()

    def emit(code):
        nonlocal bits, count
        bits |= code << count
        count += width
        while count >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            count -= 8

    emit(clear)
    current = b""
    for index in indices:
        candidate = current + bytes([index])
        if candidate in table:
            current = candidate
            continue
        emit(table[current])
        if next_code < 4096:
            table[candidate] = next_code
            next_code += 1
            if next_code > (1 << width) and width < 12:
                width += 1
        else:
            emit(clear)
            table = {bytes([i]): i for i in range(clear)}
            width, next_code = minimum + 1, end + 1
        current = bytes([index])
    if current:
        emit(table[current])
    emit(end)
    if count:
        out.append(bits & 0xFF)
    return bytes(out)


def sub_blocks(data):
    out = bytearray()
    for i in range(0, len(data), 255):
        piece = data[i:i + 255]
        out += bytes([len(piece)]) + piece
    return bytes(out + b"\0")


def gif(width, height, frames, palette, screen=None, transparent=None, interlace=False):
    screen = screen or (width, height)
    flags = 0x80 | 0x01  # a global table of 4 colours (2^(1+1))
    out = b"GIF89a" + struct.pack("<HHBBB", screen[0], screen[1], flags, 0, 0)
    out += b"".join(bytes(c) for c in palette)
    if len(frames) > 1:
        out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    for (x, y, w, h, indices) in frames:
        if transparent is not None:
            out += b"\x21\xf9\x04" + bytes([0x01]) + struct.pack("<H", 10) + bytes([transparent]) + b"\0"
        rows = [indices[r * w:(r + 1) * w] for r in range(h)]
        if interlace:
            order = list(range(0, h, 8)) + list(range(4, h, 8)) + list(range(2, h, 4)) + list(range(1, h, 2))
            rows = [rows[r] for r in order]
        out += b"\x2c" + struct.pack("<HHHHB", x, y, w, h, 0x40 if interlace else 0)
        out += bytes([2]) + sub_blocks(lzw([i for row in rows for i in row], 2))
    return out + b"\x3b"


def quadrant_indices(width, height):
    return [quadrant_index(x, y, width, height) for y in range(height) for x in range(width)]


open("quadrants.webp", "wb").write(encode_webp(64, 32, rgba(64, 32)))
open("quadrants-lossless.webp", "wb").write(encode_webp(64, 32, rgba(64, 32), lossless=True))
open("quadrants-800.webp", "wb").write(encode_webp(800, 400, rgba(800, 400)))
open("animated.webp", "wb").write(animated_webp(64, 32, [(0, 0, 64, 32, rgba(64, 32)), (0, 0, 64, 32, rgba(64, 32, (0, 0, 0)))]))
data = open("quadrants-800.webp", "rb").read()
open("truncated.webp", "wb").write(data[: len(data) // 3])
# A lossless WebP whose header claims 16383 x 16383 (the most WebP allows: 268 megapixels):
# a tiny file's VP8L header (after its 0x2f signature: 14 bits of width - 1, 14 of height - 1)
# rewritten.
tiny = bytearray(encode_webp(4, 4, rgba(4, 4), lossless=True))
bits = int.from_bytes(tiny[21:25], "little")
bits = (bits & ~((1 << 28) - 1)) | 16382 | (16382 << 14)
tiny[21:25] = bits.to_bytes(4, "little")
open("huge-header.webp", "wb").write(bytes(tiny))

open("quadrants.gif", "wb").write(gif(64, 32, [(0, 0, 64, 32, quadrant_indices(64, 32))], COLOURS))
open("quadrants-interlaced.gif", "wb").write(gif(64, 32, [(0, 0, 64, 32, quadrant_indices(64, 32))], COLOURS, interlace=True))
open("animated.gif", "wb").write(gif(64, 32, [(0, 0, 64, 32, quadrant_indices(64, 32)), (0, 0, 64, 32, [0] * 2048)], COLOURS))
# The left half transparent (index 0 = red is the transparent one): white shows through.
open("transparent.gif", "wb").write(gif(64, 32, [(0, 0, 64, 32, quadrant_indices(64, 32))], COLOURS, transparent=0))
# A 16-pixel frame on a 65535 x 65535 screen: 4 billion pixels claimed by 60 bytes.
open("huge-screen.gif", "wb").write(gif(4, 4, [(0, 0, 4, 4, [1] * 16)], COLOURS, screen=(65535, 65535)))
data = open("quadrants.gif", "rb").read()
open("truncated.gif", "wb").write(data[: len(data) // 2])
