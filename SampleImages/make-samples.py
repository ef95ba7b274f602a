#!/usr/bin/env python3
"""Generate the five sample banner images used by carousel.

Writes banners/banner-1.png .. banner-5.png (640x360, 8-bit RGB, non-interlaced)
beside this script: poster-style banners, each with its own colour scheme,
gradient, soft anti-aliased shapes, a large numeral and a title word. Then
writes Sources/CarouselCLI/SampleBanners.swift, the same files as base64 text,
which the `carousel` executable carries so that it renders them wherever it is
installed (`--embed-only` rewrites that file from the PNGs alone).

Run:  python3 SampleImages/make-samples.py   (works from any directory)

Pure standard library (zlib, struct, math, os); fully deterministic, so a
rerun gives byte-identical files.

The images are original works made by this script and are released under
CC0 1.0 (public domain dedication):
https://creativecommons.org/publicdomain/zero/1.0/
"""
import base64
import math
import os
import struct
import sys
import zlib

W, H = 640, 360
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "banners")


# ---------------------------------------------------------------- canvas ---
def clamp01(v):
    return 0.0 if v < 0.0 else 1.0 if v > 1.0 else v

def lerp_stops(stops, t):
    """Colour at t in [0,1] along evenly spaced colour stops (smoothstepped)."""
    t = clamp01(t) * (len(stops) - 1)
    i = min(int(t), len(stops) - 2)
    f = t - i
    f = f * f * (3 - 2 * f)
    a, b = stops[i], stops[i + 1]
    return tuple(a[k] + (b[k] - a[k]) * f for k in range(3))

def gradient(stops, kind, p, vignette=0.22):
    """Canvas (list of [r,g,b] floats) filled with a linear or radial gradient.
    linear: p = (angle in degrees); radial: p = (cx, cy, radius)."""
    px = []
    if kind == "linear":
        ca, sa = math.cos(math.radians(p[0])), math.sin(math.radians(p[0]))
        proj = [x * ca + y * sa for x, y in ((0, 0), (W, 0), (0, H), (W, H))]
        lo, span = min(proj), max(proj) - min(proj)
    for y in range(H):
        for x in range(W):
            if kind == "linear":
                t = (x * ca + y * sa - lo) / span
            else:
                t = math.hypot(x - p[0], y - p[1]) / p[2]
            r, g, b = lerp_stops(stops, t)
            dx, dy = (x - W / 2) / (W / 2), (y - H / 2) / (H / 2)
            v = 1.0 - vignette * (dx * dx + dy * dy) / 2
            px.append([r * v, g * v, b * v])
    return px

def fill(px, sdf, color, alpha, box=(0, 0, W, H)):
    """Blend `color` wherever the signed distance field `sdf` is < 0, with a
    one-pixel anti-aliased edge, limited to the bounding box `box`."""
    x0, y0, x1, y1 = (max(0, int(box[0]) - 1), max(0, int(box[1]) - 1),
                      min(W, int(box[2]) + 2), min(H, int(box[3]) + 2))
    for y in range(y0, y1):
        row = y * W
        for x in range(x0, x1):
            a = 0.5 - sdf(x + 0.5, y + 0.5)
            if a > 0.0:
                a = alpha if a >= 1.0 else a * alpha
                c = px[row + x]
                for k in range(3):
                    c[k] += (color[k] - c[k]) * a


# ---------------------------------------------------- signed distance fields ---
def circle(cx, cy, r):
    return lambda x, y: math.hypot(x - cx, y - cy) - r

def ring(cx, cy, r, width):
    return lambda x, y: abs(math.hypot(x - cx, y - cy) - r) - width / 2

def rrect(cx, cy, hw, hh, rad, angle=0.0):
    """Rounded rectangle of half size hw x hh, rotated by angle degrees."""
    ca, sa = math.cos(math.radians(angle)), math.sin(math.radians(angle))

    def d(x, y):
        u, v = x - cx, y - cy
        qx = abs(u * ca + v * sa) - hw + rad
        qy = abs(-u * sa + v * ca) - hh + rad
        return math.hypot(max(qx, 0), max(qy, 0)) + min(max(qx, qy), 0) - rad
    return d

def polygon(pts):
    """Convex polygon, points in clockwise order on screen (y down)."""
    edges = []
    for (ax, ay), (bx, by) in zip(pts, pts[1:] + pts[:1]):
        n = math.hypot(bx - ax, by - ay)
        edges.append((ax, ay, (by - ay) / n, (ax - bx) / n))
    return lambda x, y: max((x - ax) * nx + (y - ay) * ny for ax, ay, nx, ny in edges)

def wave(base, amp, period, phase):
    """Region below a sine wave (distance corrected by the slope)."""
    k = 2 * math.pi / period

    def d(x, y):
        s = amp * k * math.cos(x * k + phase)
        return (base + amp * math.sin(x * k + phase) - y) / math.sqrt(1 + s * s)
    return d

def hstripes(y0, period, gap):
    """Horizontal gaps of height `gap` every `period` px below y0."""
    return lambda x, y: 1e9 if y < y0 else abs((y - y0) % period - period / 2) - gap / 2

def minus(a, b):
    return lambda x, y: max(a(x, y), -b(x, y))


# ------------------------------------------------------------------ glyphs ---
def arc(cx, cy, rx, ry, a0, a1, n=28):
    """Points along an elliptical arc; angles in degrees, y axis pointing down."""
    return [(cx + rx * math.cos(math.radians(a0 + (a1 - a0) * i / n)),
             cy + ry * math.sin(math.radians(a0 + (a1 - a0) * i / n))) for i in range(n + 1)]


# Each glyph: (advance width, [stroke polylines]) in a box 1 unit tall, y down.
GLYPHS = {
    "1": (0.45, [[(0.0, 0.2), (0.3, 0.0), (0.3, 1.0)]]),
    "2": (0.62, [arc(0.3, 0.3, 0.3, 0.3, 190, 395) + [(0.0, 1.0), (0.62, 1.0)]]),
    "3": (0.6, [arc(0.29, 0.255, 0.27, 0.255, 205, 450) + arc(0.29, 0.745, 0.31, 0.255, 270, 515)]),
    "4": (0.64, [[(0.46, 1.0), (0.46, 0.0), (0.0, 0.7), (0.64, 0.7)]]),
    "5": (0.62, [[(0.56, 0.0), (0.1, 0.0), (0.07, 0.47)] + arc(0.3, 0.68, 0.32, 0.32, 225, 510)]),
    "A": (0.72, [[(0.0, 1.0), (0.36, 0.0), (0.72, 1.0)], [(0.13, 0.66), (0.59, 0.66)]]),
    "C": (0.78, [arc(0.44, 0.5, 0.44, 0.5, 320, 40)]),
    "D": (0.68, [[(0.3, 0.0), (0.0, 0.0), (0.0, 1.0), (0.3, 1.0)] + arc(0.3, 0.5, 0.38, 0.5, 90, -90)]),
    "E": (0.52, [[(0.52, 0.0), (0.0, 0.0), (0.0, 1.0), (0.52, 1.0)], [(0.0, 0.5), (0.44, 0.5)]]),
    "F": (0.5, [[(0.5, 0.0), (0.0, 0.0), (0.0, 1.0)], [(0.0, 0.5), (0.42, 0.5)]]),
    "G": (0.84, [arc(0.44, 0.5, 0.44, 0.5, 320, 0) + [(0.5, 0.5)]]),
    "H": (0.64, [[(0.0, 0.0), (0.0, 1.0)], [(0.64, 0.0), (0.64, 1.0)], [(0.0, 0.5), (0.64, 0.5)]]),
    "I": (0.0, [[(0.0, 0.0), (0.0, 1.0)]]),
    "L": (0.48, [[(0.0, 0.0), (0.0, 1.0), (0.48, 1.0)]]),
    "M": (0.76, [[(0.0, 1.0), (0.0, 0.0), (0.38, 0.62), (0.76, 0.0), (0.76, 1.0)]]),
    "N": (0.64, [[(0.0, 1.0), (0.0, 0.0), (0.64, 1.0), (0.64, 0.0)]]),
    "O": (0.88, [arc(0.44, 0.5, 0.44, 0.5, 0, 360, 48)]),
    "R": (0.58, [[(0.0, 1.0), (0.0, 0.0), (0.3, 0.0)] + arc(0.3, 0.26, 0.26, 0.26, 270, 450) + [(0.0, 0.52)],
                 [(0.26, 0.52), (0.58, 1.0)]]),
    "S": (0.58, [arc(0.29, 0.25, 0.27, 0.25, 335, 90) + arc(0.29, 0.75, 0.29, 0.25, 270, 520)]),
    "T": (0.64, [[(0.0, 0.0), (0.64, 0.0)], [(0.32, 0.0), (0.32, 1.0)]]),
    "U": (0.64, [[(0.0, 0.0), (0.0, 0.68)] + arc(0.32, 0.68, 0.32, 0.32, 180, 0) + [(0.64, 0.0)]]),
}

def text_segments(text, x, y, size, stroke, tracking):
    """Line segments of `text` with its top-left stroke edge at (x, y)."""
    segs, r = [], stroke / 2
    for ch in text:
        adv, lines = GLYPHS[ch]
        for line in lines:
            pts = [(x + r + gx * size, y + r + gy * size) for gx, gy in line]
            segs += zip(pts, pts[1:])
        x += adv * size + stroke + tracking
    return segs

def stroke_mask(mask, segs, r, soft=1.0, dx=0.0, dy=0.0):
    """Max-accumulate capsule coverage (radius r, edge width `soft`) into mask."""
    for (ax, ay), (bx, by) in segs:
        ax, ay, bx, by = ax + dx, ay + dy, bx + dx, by + dy
        ex, ey = bx - ax, by - ay
        ll = ex * ex + ey * ey or 1e-9
        pad = r + soft
        for py in range(max(0, int(min(ay, by) - pad)), min(H, int(max(ay, by) + pad) + 1)):
            for pxx in range(max(0, int(min(ax, bx) - pad)), min(W, int(max(ax, bx) + pad) + 1)):
                qx, qy = pxx + 0.5 - ax, py + 0.5 - ay
                t = clamp01((qx * ex + qy * ey) / ll)
                d = math.hypot(qx - ex * t, qy - ey * t) - r
                c = clamp01(0.5 - d / soft)
                i = py * W + pxx
                if c > mask[i]:
                    mask[i] = c

def draw_text(px, segs, stroke, shadow_rgb):
    """White strokes over a soft, offset drop shadow."""
    shadow, ink = [0.0] * (W * H), [0.0] * (W * H)
    stroke_mask(shadow, segs, stroke / 2, soft=stroke * 0.45, dx=stroke * 0.12, dy=stroke * 0.2)
    stroke_mask(ink, segs, stroke / 2)
    for i in range(W * H):
        a, b = shadow[i] * 0.38, ink[i]
        if a or b:
            c = px[i]
            for k in range(3):
                c[k] += (shadow_rgb[k] - c[k]) * a
                c[k] += (255.0 - c[k]) * b

def banner_text(px, numeral, title, shadow_rgb, x=62):
    draw_text(px, text_segments(numeral, x, 30, 172, 36, 0), 36, shadow_rgb)
    draw_text(px, text_segments(title, x + 2, 256, 34, 8, 12), 8, shadow_rgb)
    fill(px, rrect(x + 34, 318, 30, 3, 3), (255, 255, 255), 0.75, (x, 314, x + 70, 322))


# ----------------------------------------------------------------- banners ---
def banner_summer():
    px = gradient([(200, 40, 110), (240, 80, 100), (255, 140, 80), (255, 196, 110)], "linear", (20,))
    sun = minus(circle(470, 180, 118), hstripes(200, 22, 7))
    fill(px, circle(470, 180, 150), (255, 220, 150), 0.18, (320, 30, 620, 330))
    fill(px, sun, (255, 238, 170), 0.85, (352, 62, 588, 298))
    for cx, cy, r, a in ((300, 70, 26, 0.22), (600, 60, 14, 0.3), (350, 320, 40, 0.12), (610, 300, 22, 0.2)):
        fill(px, circle(cx, cy, r), (255, 255, 255), a, (cx - r, cy - r, cx + r, cy + r))
    fill(px, wave(322, 6, 160, 0.0), (150, 30, 90), 0.45, (0, 310, W, H))
    banner_text(px, "1", "SUMMER", (110, 20, 50))
    return px

def banner_ocean():
    px = gradient([(40, 210, 200), (20, 140, 205), (18, 60, 140)], "linear", (70,))
    for r in (90, 140, 190):
        fill(px, circle(560, 40, r), (180, 255, 250), 0.07, (560 - r, 0, W, 40 + r))
    for cx, cy, r in ((470, 90, 34), (545, 165, 20), (420, 185, 12), (590, 90, 10), (380, 110, 7)):
        fill(px, ring(cx, cy, r, 3), (235, 255, 255), 0.55, (cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 2))
        fill(px, circle(cx - r * 0.35, cy - r * 0.35, r * 0.18), (255, 255, 255), 0.5,
             (cx - r, cy - r, cx, cy))
    for base, amp, per, ph, a in ((250, 12, 260, 0.0, 0.12), (280, 10, 200, 1.7, 0.16), (312, 9, 150, 3.1, 0.22)):
        fill(px, wave(base, amp, per, ph), (200, 245, 255), a, (0, base - amp, W, H))
    banner_text(px, "2", "OCEAN", (5, 30, 80))
    return px

def banner_forest():
    px = gradient([(190, 230, 130), (80, 165, 90), (20, 90, 60), (10, 50, 38)], "radial", (470, 110, 560))
    fill(px, circle(480, 105, 55), (250, 255, 210), 0.45, (425, 50, 535, 160))
    fill(px, circle(480, 105, 85), (250, 255, 210), 0.15, (395, 20, 565, 190))
    fill(px, circle(560, 560, 300), (30, 110, 60), 0.6, (260, 260, W, H))
    for tx, ty, s, a in ((400, 330, 1.0, 0.85), (470, 310, 1.35, 0.9), (548, 334, 0.95, 0.85), (610, 320, 1.15, 0.9)):
        for k in range(3):
            w, top = (46 - 9 * k) * s, ty - (40 + 34 * k) * s
            base = ty - 34 * k * s
            fill(px, polygon([(tx, top), (tx + w, base), (tx - w, base)]), (12, 60, 40), a,
                 (tx - w, top, tx + w, base))
        fill(px, rrect(tx, ty + 8 * s, 5 * s, 10 * s, 2), (40, 30, 20), a, (tx - 6 * s, ty, tx + 6 * s, ty + 20 * s))
    fill(px, circle(140, 640, 330), (10, 55, 38), 0.55, (0, 300, 480, H))
    banner_text(px, "3", "FOREST", (5, 35, 20))
    return px

def banner_night():
    px = gradient([(160, 100, 235), (95, 55, 185), (45, 25, 115), (18, 12, 55)], "radial", (520, 70, 600))
    for k in range(1, 71):  # stars on a low-discrepancy (R2) sequence: spread out, deterministic
        sx, sy = (k * 0.7548777 + 0.3) % 1 * W, (k * 0.5698403 + 0.1) % 1 * H * 0.8
        r, a = 0.6 + (k * 0.381966) % 1 * 1.6, 0.35 + (k * 0.7236) % 1 * 0.55
        fill(px, circle(sx, sy, r), (255, 250, 255), a, (sx - r, sy - r, sx + r, sy + r))
    for cx, cy, s in ((400, 60, 9), (600, 210, 7), (330, 200, 6)):
        fill(px, rrect(cx, cy, s, s, s * 0.35, 45), (255, 240, 255), 0.8,
             (cx - 2 * s, cy - 2 * s, cx + 2 * s, cy + 2 * s))
    fill(px, circle(505, 120, 95), (230, 200, 255), 0.12, (400, 15, 610, 225))
    fill(px, minus(circle(505, 120, 62), circle(532, 98, 56)), (250, 242, 255), 0.95, (440, 55, 570, 185))
    fill(px, circle(470, 600, 330), (35, 20, 90), 0.7, (130, 260, W, H))
    fill(px, circle(110, 560, 260), (20, 12, 60), 0.75, (0, 290, 380, H))
    banner_text(px, "4", "NIGHT", (15, 5, 45))
    return px

def banner_gold():
    px = gradient([(175, 95, 15), (225, 140, 25), (250, 190, 60), (255, 225, 120)], "linear", (-25,))
    for k in range(6):
        c = 330 + k * 70
        fill(px, rrect(c, 180, 14, 400, 14, 30), (255, 240, 190), 0.1)
    for cx, cy, r in ((500, 150, 80), (585, 260, 44), (400, 280, 30)):
        fill(px, circle(cx, cy, r), (255, 215, 90), 0.5, (cx - r, cy - r, cx + r, cy + r))
        fill(px, ring(cx, cy, r * 0.78, r * 0.08), (255, 250, 220), 0.6, (cx - r, cy - r, cx + r, cy + r))
    for cx, cy, s, a in ((590, 70, 22, 0.45), (380, 60, 14, 0.35), (620, 180, 10, 0.4)):
        fill(px, rrect(cx, cy, s, s, s * 0.3, 45), (255, 255, 235), a,
             (cx - 1.5 * s, cy - 1.5 * s, cx + 1.5 * s, cy + 1.5 * s))
    banner_text(px, "5", "GOLD", (95, 45, 5))
    return px


# --------------------------------------------------------------------- PNG ---
def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c

def write_png(path, px):
    """8-bit RGB PNG, zlib level 9, per-row adaptive filter (min abs sum)."""
    raw, prev = bytearray(), bytes(W * 3)
    for y in range(H):
        row = bytes(max(0, min(255, int(v + 0.5))) for c in px[y * W:(y + 1) * W] for v in c)
        left, upl = bytes(3) + row[:-3], bytes(3) + prev[:-3]
        cands = [bytes([0]) + row,
                 bytes([1]) + bytes((r - a) & 255 for r, a in zip(row, left)),
                 bytes([2]) + bytes((r - b) & 255 for r, b in zip(row, prev)),
                 bytes([4]) + bytes((r - paeth(a, b, c)) & 255 for r, a, b, c in zip(row, left, prev, upl))]
        raw += min(cands, key=lambda f: sum(v if v < 128 else 256 - v for v in f[1:]))
        prev = row

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))

def write_swift(paths):
    """The PNG files as base64 string literals in the executable's source, 76 characters a line."""
    out = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "Sources", "CarouselCLI", "SampleBanners.swift")
    lines = ["// Written by SampleImages/make-samples.py from SampleImages/banners: do not edit.",
             "",
             "/// The sample banners' PNG files, `banner-1.png` ... `banner-5.png`, as base64 text. The",
             "/// executable carries them, so it renders them with no images given wherever it is copied",
             "/// or installed; the tests check they are the files in `SampleImages/banners`.",
             "enum SampleBanners {",
             "    static let base64: [String] = ["]
    for path in paths:
        text = base64.b64encode(open(path, "rb").read()).decode("ascii")
        lines.append('        """')
        lines += ["        " + text[k:k + 76] for k in range(0, len(text), 76)]
        lines.append('        """,')
    lines += ["    ]", "}"]
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote", out)


def main():
    paths = [os.path.join(HERE, "banner-%d.png" % n) for n in range(1, 6)]
    if "--embed-only" not in sys.argv[1:]:
        for path, make in zip(paths, (banner_summer, banner_ocean, banner_forest, banner_night, banner_gold)):
            write_png(path, make())
            print("wrote", path)
    write_swift(paths)


if __name__ == "__main__":
    main()
