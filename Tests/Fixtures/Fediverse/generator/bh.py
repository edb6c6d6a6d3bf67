"""Tiny BlurHash encoder (own implementation of the public algorithm) for synthetic gradient 'photos'."""
import math
B83 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~"

def _e83(v, n):
    return "".join(B83[(v // 83 ** (n - 1 - i)) % 83] for i in range(n))

def _lin(c):
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

def _srgb(v):
    v = max(0.0, min(1.0, v))
    return int(v * 12.92 * 255 + 0.5) if v <= 0.0031308 else int((1.055 * v ** (1 / 2.4) - 0.055) * 255 + 0.5)

def _sp(v, e):
    return math.copysign(abs(v) ** e, v)

def encode(pixels, w, h, cx=4, cy=3):
    f = []
    for j in range(cy):
        for i in range(cx):
            norm = 1 if i == 0 and j == 0 else 2
            r = g = b = 0.0
            for y in range(h):
                for x in range(w):
                    basis = norm * math.cos(math.pi * i * x / w) * math.cos(math.pi * j * y / h)
                    pr, pg, pb = pixels[y * w + x]
                    r += basis * _lin(pr); g += basis * _lin(pg); b += basis * _lin(pb)
            s = 1 / (w * h)
            f.append((r * s, g * s, b * s))
    dc, ac = f[0], f[1:]
    out = _e83((cx - 1) + (cy - 1) * 9, 1)
    if ac:
        actual = max(abs(c) for t in ac for c in t)
        q = max(0, min(82, int(actual * 166 - 0.5)))
        maxv = (q + 1) / 166
        out += _e83(q, 1)
    else:
        maxv = 1; out += _e83(0, 1)
    out += _e83((_srgb(dc[0]) << 16) + (_srgb(dc[1]) << 8) + _srgb(dc[2]), 4)
    for t in ac:
        qr, qg, qb = (max(0, min(18, int(math.floor(_sp(c / maxv, 0.5) * 9 + 9.5)))) for c in t)
        out += _e83(qr * 19 * 19 + qg * 19 + qb, 2)
    return out

def gradient(top, bottom, blob=None, w=24, h=18, cx=4, cy=3):
    px = []
    for y in range(h):
        for x in range(w):
            t = y / (h - 1)
            c = [top[k] * (1 - t) + bottom[k] * t for k in range(3)]
            if blob:
                (bx, by, rad, col) = blob
                d = math.hypot(x / w - bx, y / h - by)
                if d < rad:
                    a = 1 - d / rad
                    c = [c[k] * (1 - a) + col[k] * a for k in range(3)]
            px.append(tuple(int(v) for v in c))
    return encode(px, w, h, cx, cy)

PALETTE = {
    "dusk":   gradient((233, 150, 160), (30, 40, 80), (0.7, 0.6, 0.2, (255, 210, 120))),
    "hut":    gradient((190, 200, 210), (70, 90, 60), (0.5, 0.55, 0.25, (120, 60, 40))),
    "fog":    gradient((215, 218, 220), (160, 165, 170)),
    "snow":   gradient((200, 215, 235), (245, 245, 250), (0.3, 0.7, 0.3, (90, 100, 110))),
    "sea":    gradient((120, 170, 210), (20, 60, 90), (0.5, 0.5, 0.15, (240, 240, 240))),
    "night":  gradient((10, 12, 30), (2, 4, 10), (0.8, 0.2, 0.1, (230, 230, 200))),
    "food":   gradient((120, 80, 40), (230, 220, 200), (0.5, 0.5, 0.3, (160, 110, 60))),
    "market": gradient((180, 190, 200), (90, 100, 110), (0.4, 0.6, 0.3, (200, 80, 60))),
    "steam":  gradient((60, 60, 65), (20, 20, 22), (0.5, 0.3, 0.25, (220, 220, 220))),
    "green":  gradient((140, 190, 230), (50, 110, 50)),
    "rock":   gradient((110, 105, 100), (60, 58, 55), (0.3, 0.7, 0.2, (150, 140, 120))),
    "place":  gradient((128, 128, 128), (128, 128, 128)),
}

# 4x4 components ("U…" hashes, as in Mastodon's docs examples)
PALETTE_U = {k: None for k in PALETTE}
_args = {
    "dusk":   ((233, 150, 160), (30, 40, 80), (0.7, 0.6, 0.2, (255, 210, 120))),
    "hut":    ((190, 200, 210), (70, 90, 60), (0.5, 0.55, 0.25, (120, 60, 40))),
    "fog":    ((215, 218, 220), (160, 165, 170), None),
    "snow":   ((200, 215, 235), (245, 245, 250), (0.3, 0.7, 0.3, (90, 100, 110))),
    "sea":    ((120, 170, 210), (20, 60, 90), (0.5, 0.5, 0.15, (240, 240, 240))),
    "night":  ((10, 12, 30), (2, 4, 10), (0.8, 0.2, 0.1, (230, 230, 200))),
    "food":   ((120, 80, 40), (230, 220, 200), (0.5, 0.5, 0.3, (160, 110, 60))),
    "market": ((180, 190, 200), (90, 100, 110), (0.4, 0.6, 0.3, (200, 80, 60))),
    "steam":  ((60, 60, 65), (20, 20, 22), (0.5, 0.3, 0.25, (220, 220, 220))),
    "green":  ((140, 190, 230), (50, 110, 50), None),
    "rock":   ((110, 105, 100), (60, 58, 55), (0.3, 0.7, 0.2, (150, 140, 120))),
    "place":  ((128, 128, 128), (128, 128, 128), None),
}
for _k, (_t, _b, _bl) in _args.items():
    PALETTE_U[_k] = gradient(_t, _b, _bl, cx=4, cy=4)
