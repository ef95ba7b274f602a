#!/usr/bin/env python3
"""Pillow's reading of carousel's GIFs on a transparent background, against giflib's.

    python3 bench/pillow-gif-check.py [BIN] [IMAGE...]
    e.g.  python3 bench/pillow-gif-check.py .build/release/carousel

Renders a matrix of transparent GIFs at 320x180 (the sample banners, or the IMAGEs given):
five layouts (the default, `--spacing 16`, and `--spacing` 16, 40 and 8 with `--item-width`
560, 400 and 300), `--colors` 2, 16, 64, 127, 128 and 256, and six variants (the default,
each other dither, a drag, footer dots, a translucent background). Each GIF is read twice:
composited by Pillow, and as giflib's readers and browsers composite it
(`bench/transparent-check.py`'s `decoded`). Prints each render whose readings differ (the
pixels apart, counting fully transparent pixels alike whatever their colour, and both image
counts), then how many renders differ. Pillow shows no transparency after a first image
without a transparent index, and clears an image without one to the background colour, opaque.
Needs Pillow, numpy and ssimulacra2 (which `transparent-check.py` imports).
"""
import itertools, sys, tempfile
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchmodules import load

check = load("transparent-check.py")

LAYOUTS = [[], ["--spacing", "16"], ["--spacing", "16", "--item-width", "560"],
           ["--spacing", "40", "--item-width", "400"], ["--spacing", "8", "--item-width", "300"]]
COLORS = ["2", "16", "64", "127", "128", "256"]
VARIANTS = [[], ["--dither", "diffusion"], ["--dither", "none"],
            ["--script", "hold 0.3; drag -200 0.3; release; hold 0.5"], ["--dots", "footer"],
            ["--background", "#FF000040"]]


def pillow(gif):
    """Each image of the GIF as Pillow composites it (RGBA)."""
    image, pictures = Image.open(gif), []
    for k in range(image.n_frames):
        image.seek(k)
        pictures.append(np.asarray(image.convert("RGBA")).astype(np.int16))
    return pictures


def main():
    args = sys.argv[1:]
    exe = check.binary(args.pop(0) if args and not args[0].lower().endswith(".png") else ".build/release/carousel",
                       "pillow-gif-check")
    differ = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        gif = Path(tmp) / "check.gif"
        for layout, colors, variant in itertools.product(LAYOUTS, COLORS, VARIANTS):
            options = [*args, "--size", "320x180", *layout, "--colors", colors, "--background", "#00000000",
                       *variant, "--quiet"]
            check.run([exe, "render", *options, "-o", gif], "pillow-gif-check")
            theirs, ours = pillow(gif), [picture for picture, _ in check.decoded(gif)]
            apart = sum(int(np.count_nonzero(np.any(check.clear_transparent(a) != check.clear_transparent(b), axis=-1)))
                        for a, b in zip(theirs, ours))
            total += 1
            if apart or len(theirs) != len(ours):
                differ += 1
                print(f"{apart} px apart, {len(theirs)} / {len(ours)} images: {' '.join(map(str, options))}")
    print(f"{total} renders, {differ} read differently by Pillow")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit("pillow-gif-check: interrupted")
