#!/usr/bin/env python3
"""Shimmer and SSIMULACRA2 of carousel's GIF on a transparent background.

    python3 bench/transparent-check.py [BIN] [--every N] [-- RENDER OPTIONS...]
    e.g.  python3 bench/transparent-check.py .build/release/carousel

Renders the GIF (`carousel render --background '#00000000'`, the sample banners unless
options are given) and the exact RGBA frames (`carousel frames`), expands the GIF by its
delays with Pillow (which applies the disposal), and prints:
- transparency: pixels shown transparent where the exact frame's alpha is 128 or more, or
  shown opaque where it is below (0 when the GIF is right);
- shimmer: pixels whose exact RGBA is unchanged from the frame before (fully transparent
  pixels compare equal whatever their colour) but whose shown pixel changed, counted as
  bench/quality-bench.py counts them on opaque backgrounds;
- SSIMULACRA2 of every 12th timeline frame (every Nth with `--every N`; 1 scores them all,
  which a frame gone wrong between the samples needs), each composited on white, against
  the exact frame composited the same way, the worst frame's index, and the last scored
  frame's score (after a gesture, the last timeline frame shows the rest).
The sample banners fill the view, so no pixel turns transparent and no frame is cleared
(docs/behaviour.md, *Transparent backgrounds*); `-- --spacing 16 --item-width 560` moves
gaps over the items, which clears frames (and with `--colors` below 128, takes whole
frames).
Needs Pillow, numpy and ssimulacra2 (pip).
"""
import io, json, subprocess, sys, tempfile
from pathlib import Path

import numpy as np
from PIL import Image
from ssimulacra2 import compute_ssimulacra2


def expanded(gif, frames):
    """The GIF's shown picture at each timeline frame (RGBA), by cumulative delays."""
    image = Image.open(gif)
    pictures, delays = [], []
    try:
        while True:
            pictures.append(np.asarray(image.convert("RGBA")).astype(np.int16))
            delays.append(image.info.get("duration", 0) // 10)
            image.seek(image.tell() + 1)
    except EOFError:
        pass
    starts = np.cumsum([0] + [f["delay"] for f in frames])[:-1]
    ends = np.cumsum(delays)
    return [pictures[int(np.searchsorted(ends, t, side="right"))] for t in starts]


def clear_transparent(a):
    a = a.copy()
    a[a[..., 3] == 0] = 0
    return a


def on_white(a):
    a = a.astype(np.float64)
    alpha = a[..., 3:4] / 255
    return (a[..., :3] * alpha + 255 * (1 - alpha)).round().astype(np.uint8)


def ppm(pixels):
    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(pixels), "RGB").save(buffer, "PPM")
    buffer.seek(0)
    return buffer


def main():
    args = sys.argv[1:]
    exe = args.pop(0) if args and args[0] not in ("--", "--every") else ".build/release/carousel"
    every = 12
    if args[:1] == ["--every"]:
        if len(args) < 2 or not args[1].isdigit() or int(args[1]) < 1:
            sys.exit("transparent-check: --every takes a whole number of frames, 1 or more")
        every = int(args[1])
        args = args[2:]
    options = args[1:] if args[:1] == ["--"] else args
    with tempfile.TemporaryDirectory() as tmp:
        gif, folder = Path(tmp) / "carousel.gif", Path(tmp) / "frames"
        common = [*options, "--background", "#00000000", "--quiet"]
        subprocess.run([exe, "render", *common, "-o", gif], check=True)
        subprocess.run([exe, "frames", *common, "-o", folder], check=True)
        frames = json.loads((folder / "frames.json").read_text())["frames"]
        exact = [np.asarray(Image.open(p).convert("RGBA")).astype(np.int16) for p in sorted(folder.glob("*.png"))]
        shown = expanded(gif, frames)
        wrong = sum(int(np.count_nonzero((e[..., 3] < 128) != (s[..., 3] == 0))) for e, s in zip(exact, shown))
        shimmer = 0
        for k in range(1, len(exact)):
            still = np.all(clear_transparent(exact[k]) == clear_transparent(exact[k - 1]), axis=-1)
            moved = np.any(clear_transparent(shown[k]) != clear_transparent(shown[k - 1]), axis=-1)
            shimmer += int(np.count_nonzero(still & moved))
        scores = []
        for k in range(0, len(exact), every):
            a, b = on_white(exact[k]), on_white(shown[k])
            scores.append(100.0 if np.array_equal(a, b) else float(compute_ssimulacra2(ppm(a), ppm(b))))
        worst = int(np.argmin(scores)) * every
        print(f"{gif.stat().st_size} bytes, {len(exact)} timeline frames, shimmer {shimmer} px, "
              f"transparency wrong {wrong} px")
        print(f"SSIMULACRA2 on white, every {every} frame(s) ({len(scores)}): mean {np.mean(scores):.2f}, "
              f"worst {min(scores):.2f} (frame {worst}), last scored {scores[-1]:.2f} (frame {(len(scores) - 1) * every})")


if __name__ == "__main__":
    main()
