#!/usr/bin/env python3
"""Writes the small test images next to this script (committed; rerun only to change them).
Needs Pillow. Known images have flat quadrants so decoded colours are easy to check."""
import struct
import zlib

from PIL import Image


def quadrants(width=64, height=32):
    image = Image.new("RGB", (width, height))
    colours = [(220, 20, 20), (20, 200, 40), (30, 40, 210), (250, 250, 250)]
    for y in range(height):
        for x in range(width):
            image.putpixel((x, y), colours[(1 if x >= width // 2 else 0) + (2 if y >= height // 2 else 0)])
    return image


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


q = quadrants()
q.save("quadrants.jpg", quality=95, subsampling=0)
q.save("quadrants-progressive.jpg", quality=95, subsampling=0, progressive=True)
q.convert("RGBA").save("quadrants.png")
q.save("png-named.jpg", format="PNG")                      # mislabelled: a PNG called .jpg
big = quadrants(800, 400)
big.save("quadrants-800.jpg", quality=95, subsampling=0)   # for the DCT scaling tests
exif = Image.Exif()
exif[0x0112] = 6                                            # rotate 90° clockwise to view
q.save("orientation-6.jpg", quality=95, subsampling=0, exif=exif.tobytes())
q.convert("CMYK").save("cmyk.jpg", quality=95)             # Pillow writes Adobe (inverted) CMYK

data = open("quadrants-800.jpg", "rb").read()
open("truncated.jpg", "wb").write(data[: len(data) // 2])
open("corrupt.jpg", "wb").write(data[:200] + bytes((i * 37) % 256 for i in range(400)))
open("empty.jpg", "wb").write(b"")
open("not-an-image.jpg", "wb").write(b"This is a text file, not a photograph.\n")

# A valid PNG signature and IHDR claiming 100,000 x 100,000 pixels (and nothing else).
ihdr = struct.pack(">IIBBBBB", 100_000, 100_000, 8, 6, 0, 0, 0)
open("huge-header.png", "wb").write(b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IEND", b""))

# A JPEG whose frame header claims 65,000 x 65,000 (the format's limit is 65,535).
jpeg = bytearray(open("quadrants.jpg", "rb").read())
sof = jpeg.find(b"\xff\xc0")
jpeg[sof + 5:sof + 9] = struct.pack(">HH", 65000, 65000)
open("huge-header.jpg", "wb").write(bytes(jpeg))


def bomb(width, height):
    """A valid 1-bit greyscale PNG of zeros: a few kilobytes that decode to width x height
    pixels of RGBA (issue 43: 12-KB PNGs that took the process past 1.3 GB)."""
    row = b"\x00" * (1 + (width + 7) // 8)  # filter type 0, then the row's bits
    deflate = zlib.compressobj(9)
    data = b"".join(deflate.compress(row) for _ in range(height)) + deflate.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", data) + png_chunk(b"IEND", b"")


open("bomb-100mp.png", "wb").write(bomb(10_000, 10_000))  # refused from its header
open("bomb-23mp.png", "wb").write(bomb(4_800, 4_800))     # under the decode limit: held to the budget
