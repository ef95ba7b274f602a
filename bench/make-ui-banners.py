#!/usr/bin/env python3
"""App banners with small text, for checking the GIF beyond the benchmark's workloads.

    python3 bench/make-ui-banners.py [OUT_DIR]

Writes five 750x420 RGB PNGs to OUT_DIR (default bench/.cache/ui), ui-1.png ... ui-5.png:
what an app's promotional carousel shows. Each has a smooth two-colour background
gradient (dark indigo, pale blue-grey, green, peach, dark grey), a heading, three lines of
body text, a rounded button, a line of ratings, and a card with a soft shadow holding seven
list rows (a coloured dot, a title at 13 px, a caption at 10 px). Flat fills and gradients
a level or two a step cover most of each picture; the anti-aliased text adds a thousand
to a few thousand colours of a few pixels each.

The text is drawn with the font Pillow carries (`ImageFont.load_default(size=...)`,
Pillow 10.1 or later, with FreeType), so no system font is needed; its pixels follow the
FreeType of the Pillow build, so they may differ between Pillow versions. Each image is
listed on stderr with the first 16 hex digits of the SHA-256 of its pixels, and its path
on stdout. Needs numpy and Pillow.

Use them with any checker, e.g. `python3 bench/option-sweep.py BIN --every 4 --
bench/.cache/ui/*.png` (the sample banners' defaults otherwise).
"""
import hashlib, sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from benchmodules import usage

BENCH = Path(__file__).resolve().parent
W, H = 750, 420
THEMES = [  # background top-left, bottom-right; dark?; title
    ((20, 24, 48), (70, 40, 140), True, "Focus Timer"),
    ((250, 250, 252), (225, 232, 245), False, "Notes"),
    ((12, 90, 70), (30, 160, 120), True, "Hiking Maps"),
    ((255, 236, 210), (255, 180, 120), False, "Recipes"),
    ((30, 30, 34), (60, 60, 70), True, "Budget"),
]
BODY = ["Stay on task with gentle reminders and", "weekly reports of where your time went.",
        "Sync across iPhone, iPad and Mac."]
ROWS = ["Morning run", "Read 20 pages", "Call Anna", "Groceries", "Plan week", "Stretch", "Journal"]
DOTS = [(255, 69, 58), (255, 159, 10), (48, 209, 88), (10, 132, 255), (191, 90, 242)]


def log(message):
    print(f"[ui] {message}", file=sys.stderr, flush=True)


def font(size):
    try:
        return ImageFont.load_default(size=size)
    except TypeError:
        sys.exit("make-ui-banners.py: needs Pillow 10.1 or later (ImageFont.load_default(size=...))")


def banner(k):
    top, bottom, dark, title = THEMES[k]
    # Mostly down, a fifth across; rounded half up.
    y, x = np.mgrid[0:H, 0:W]
    t = (y / H) * 0.8 + (x / W) * 0.2
    a, b = np.array(top, float), np.array(bottom, float)
    pixels = np.floor(a + (b - a) * t[..., None] + 0.5).astype(np.uint8)
    image = Image.fromarray(pixels, "RGB")
    draw = ImageDraw.Draw(image)
    ink = (255, 255, 255) if dark else (20, 20, 30)
    muted = (200, 200, 215) if dark else (90, 95, 110)
    draw.text((40, 36), title, font=font(44), fill=ink)
    for i, line in enumerate(BODY):
        draw.text((40, 104 + 24 * i), line, font=font(17), fill=muted)
    draw.rounded_rectangle((40, 200, 230, 248), radius=24, fill=(10, 132, 255))
    draw.text((70, 212), "Get started", font=font(19), fill=(255, 255, 255))
    draw.text((40, 268), "4.8 out of 5 - 12K ratings", font=font(14), fill=muted)
    card = (470, 40, 710, 390)
    shadow = Image.new("L", (W, H), 0)
    ImageDraw.Draw(shadow).rounded_rectangle((card[0] + 6, card[1] + 10, card[2] + 6, card[3] + 10), radius=28, fill=110)
    image.paste((0, 0, 0), mask=shadow.filter(ImageFilter.GaussianBlur(10)))
    draw = ImageDraw.Draw(image)
    night = k == 4
    draw.rounded_rectangle(card, radius=28, fill=(44, 44, 48) if night else (255, 255, 255))
    for r, name in enumerate(ROWS):
        y0 = card[1] + 30 + 46 * r
        draw.ellipse((card[0] + 18, y0, card[0] + 46, y0 + 28), fill=DOTS[(r + k) % len(DOTS)])
        draw.text((card[0] + 58, y0 + 1), f"Item {r + 1}: {name}", font=font(13),
                  fill=(230, 230, 235) if night else (30, 30, 36))
        draw.text((card[0] + 58, y0 + 17), "09:30 - 25 min", font=font(10), fill=(140, 140, 150))
    return image


def make(out):
    """Writes the banners to folder `out`; returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for k in range(len(THEMES)):
        image = banner(k)
        path = out / f"ui-{k + 1}.png"
        image.save(path)
        log(f"{path.name}: {image.width}x{image.height}, pixels sha256 {hashlib.sha256(image.tobytes()).hexdigest()[:16]}")
        paths.append(path)
    return paths


def main(argv):
    if len(argv) > 1 or (argv and (not argv[0] or argv[0].startswith("-"))):
        usage("make-ui-banners", "usage: make-ui-banners.py [OUT_DIR]")
    out = Path(argv[0]) if argv else BENCH / ".cache" / "ui"
    try:
        paths = make(out)
    except OSError as error:
        print(f"make-ui-banners: {out}: {error.strerror or error}", file=sys.stderr)
        return 1
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
