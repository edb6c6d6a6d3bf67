#!/usr/bin/env python3
"""Rebuilds Assets/photos from Debian's wallpaper packages (run once by a maintainer, not by
the build: the results are committed). Needs Pillow and the two .deb files extracted:

    apt-get download mate-backgrounds plasma-workspace-wallpapers
    for f in *.deb; do dpkg -x "$f" x; done
    python3 Assets/tools/prepare_assets.py x Assets

The mix is chosen so decoding cost is real: mostly baseline JPEG 1600-2560 px wide, a few
large ones (>= 4000 px), a few progressive JPEGs and two PNGs. It also writes
Assets/placeholders.json: each photo's average colours on a 32 x 18 grid, so a placeholder
for any crop window is a lookup, never a decode.
"""
import json
import os
import sys

from PIL import Image

MATE = "usr/share/backgrounds/mate/nature/{}.jpg"
PLASMA = "usr/share/wallpapers/{}/contents/images/{}.jpg"

# id, source, output width, format ("jpeg", "progressive", "png"), quality
PHOTOS = [
    ("aqua", MATE.format("Aqua"), 1600, "png", None),
    ("blinds", MATE.format("Blinds"), 1920, "jpeg", 80),
    ("dune", MATE.format("Dune"), 1680, "jpeg", 80),
    ("fresh-flower", MATE.format("FreshFlower"), 1600, "jpeg", 80),
    ("garden", MATE.format("Garden"), 1920, "jpeg", 80),
    ("green-meadow", MATE.format("GreenMeadow"), 1280, "jpeg", 80),
    ("ladybird", MATE.format("LadyBird"), 1920, "jpeg", 80),
    ("rain-drops", MATE.format("RainDrops"), 1920, "progressive", 78),
    ("storm", MATE.format("Storm"), 1920, "progressive", 78),
    ("two-wings", MATE.format("TwoWings"), 1920, "jpeg", 80),
    ("wood", MATE.format("Wood"), 1600, "jpeg", 80),
    ("yellow-flower", MATE.format("YellowFlower"), 1920, "jpeg", 80),
    ("by-the-water", PLASMA.format("BytheWater", "2560x1600"), 2560, "jpeg", 80),
    ("cold-ripple", PLASMA.format("ColdRipple", "2560x1600"), 2560, "jpeg", 80),
    ("darkest-hour", PLASMA.format("DarkestHour", "2560x1600"), 2560, "progressive", 80),
    ("evening-glow", PLASMA.format("EveningGlow", "2560x1600"), 4096, "jpeg", 76),
    ("fallen-leaf", PLASMA.format("FallenLeaf", "2560x1600"), 2560, "jpeg", 80),
    ("kite", PLASMA.format("Kite", "1280x800"), 1280, "png", None),
    ("one-stands-out", PLASMA.format("OneStandsOut", "2560x1600"), 2560, "jpeg", 80),
    ("path", PLASMA.format("Path", "2560x1600"), 4096, "progressive", 74),
    ("summer-1am", PLASMA.format("summer_1am", "2560x1600"), 2560, "jpeg", 80),
    ("volna", PLASMA.format("Volna", "5120x2880"), 5120, "jpeg", 72),
]

GRID = (32, 18)


def main(root, assets):
    out_dir = os.path.join(assets, "photos")
    os.makedirs(out_dir, exist_ok=True)
    placeholders = {}
    for ident, source, width, kind, quality in PHOTOS:
        image = Image.open(os.path.join(root, source)).convert("RGB")
        if image.width != width:
            height = round(image.height * width / image.width)
            image = image.resize((width, height), Image.LANCZOS)
        if kind == "png":
            path = os.path.join(out_dir, ident + ".png")
            image.save(path, optimize=True)
        else:
            path = os.path.join(out_dir, ident + ".jpg")
            image.save(path, quality=quality, progressive=(kind == "progressive"), optimize=True)
        grid = image.resize(GRID, Image.BOX)
        placeholders[ident] = {
            "file": os.path.relpath(path, assets),
            "width": image.width,
            "height": image.height,
            "grid": [GRID[0], GRID[1]],
            "rgb": "".join("%02x%02x%02x" % grid.getpixel((x, y)) for y in range(GRID[1]) for x in range(GRID[0])),
        }
        print(f"{ident:16} {image.width}x{image.height} {kind:12} {os.path.getsize(path) / 1e6:.2f} MB")
    with open(os.path.join(assets, "placeholders.json"), "w") as f:
        json.dump(placeholders, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
