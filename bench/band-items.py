#!/usr/bin/env python3
"""Pictures whose top rows are a band of one colour a row: a case where a transparent
background's still pixels show many colours however far a frame has moved.

    python3 bench/band-items.py OUT_DIR IMAGE.png [IMAGE.png ...]
    e.g.  python3 bench/band-items.py /tmp/band bench/.cache/photos/photo-*.png

Each image is fitted to 640x360 (Pillow, Lanczos, cropped to fill) and its top 170 rows are
replaced by a vertical hue ramp, the hue turning once over the band and starting a fifth of
a turn further on each image, at saturation 0.6 and value 0.85: rows of one colour each, so
they stand still as the carousel moves along them. Written as OUT_DIR/band-N.png. Used in
docs/behaviour.md, *A move's ends take the hold's palette*, with `bench/transparent-check.py`.
Needs Pillow and numpy.
"""
import colorsys, sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for n, name in enumerate(sys.argv[2:], start=1):
        try:
            image = ImageOps.fit(Image.open(name).convert("RGB"), (640, 360), Image.LANCZOS)
        except OSError as error:
            sys.exit(f"band-items: {name}: {error}")
        pixels = np.asarray(image).copy()
        for y in range(170):
            r, g, b = colorsys.hsv_to_rgb((y / 170 + n / 5) % 1, 0.6, 0.85)
            pixels[y, :] = (round(r * 255), round(g * 255), round(b * 255))
        Image.fromarray(pixels).save(out / f"band-{n}.png")
        print(out / f"band-{n}.png")


if __name__ == "__main__":
    main()
