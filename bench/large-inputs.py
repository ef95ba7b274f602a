#!/usr/bin/env python3
"""Peak memory and time of rendering large pictures into a small viewport: six
4032x3024 pictures (a phone camera's 12 megapixels) into 393x852, and into 1179x2556.

    python3 bench/large-inputs.py BIN [BIN ...]

Each binary renders both sizes three times, alternating; prints the least time and peak
RSS (GNU time) of each, and whether every binary wrote the same GIF. The pictures
(gradients with noise, about 13 MB each) are made once into bench/.cache/large/. Needs
numpy, Pillow and GNU time.
"""
import subprocess, sys, tempfile
from pathlib import Path

import numpy as np
from PIL import Image

CACHE = Path(__file__).resolve().parent / ".cache" / "large"
SIZES = ["393x852", "1179x2556"]
RUNS = 3


def pictures():
    CACHE.mkdir(parents=True, exist_ok=True)
    paths = [CACHE / f"big-{k}.png" for k in range(6)]
    if all(p.exists() for p in paths):
        return paths
    rng = np.random.default_rng(1)
    h, w = 3024, 4032
    y, x = np.mgrid[0:h, 0:w]
    for k, path in enumerate(paths):
        r = ((x * 255) // w + k * 30) % 256
        g = (y * 255) // h
        b = ((x + y) * 255 // (w + h) + rng.integers(0, 20, (h, w))) % 256
        Image.fromarray(np.dstack([r, g, b]).astype(np.uint8)).save(path, compress_level=1)
    return paths


def run(binary, size, inputs, out):
    result = subprocess.run(["/usr/bin/time", "-f", "%e %M", binary, "render", *map(str, inputs), "--size", size,
                             "--quiet", "-o", out], capture_output=True, text=True, check=True)
    seconds, kilobytes = result.stderr.strip().splitlines()[-1].split()
    return float(seconds), int(kilobytes) / 1024


def main():
    binaries = sys.argv[1:]
    if not binaries:
        sys.exit(__doc__)
    inputs = pictures()
    with tempfile.TemporaryDirectory() as folder:
        for size in SIZES:
            best = {b: (float("inf"), 0.0) for b in binaries}
            gifs = {}
            for _ in range(RUNS):
                for b in binaries:
                    out = Path(folder) / f"{len(gifs)}.gif"
                    seconds, mib = run(b, size, inputs, out)
                    best[b] = (min(best[b][0], seconds), max(best[b][1], mib))
                    gifs[b] = out.read_bytes()
            same = len(set(gifs.values())) == 1
            for b in binaries:
                print(f"{size}: {b}: {best[b][0]:.2f} s, peak RSS {best[b][1]:.1f} MiB")
            print(f"{size}: the same GIF from every binary: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
