#!/usr/bin/env python3
"""GIF, animated WebP and APNG from the same frames: bytes, encode time, SSIMULACRA2.

    CAROUSEL_BIN=.build/release/carousel python3 bench/formats-bench.py [IMAGES... -- OPTIONS...]

With no arguments, the sample banners with every default. Each format is decoded with
Pillow (libwebp, its own APNG reader), expanded to timeline frames by its delays, and
every K-th timeline frame is scored with SSIMULACRA2 against `carousel frames` (the exact
frames). Prints a Markdown table. Needs Pillow and ssimulacra2 (pip).
"""
import json, os, subprocess, sys, tempfile, time
from pathlib import Path

from PIL import Image
from ssimulacra2 import compute_ssimulacra2

EVERY = 6


def run(cmd):
    subprocess.run(cmd, check=True)


def frames_of(path, count, fps, mode="RGB"):
    """The file's frames as images in `mode` (RGB, or RGBA for its transparency), one per
    timeline frame (by their durations); the last one fills the frames its duration leaves
    (a still image, which has none, all of them)."""
    image = Image.open(path)
    out = []
    shown = 0.0
    for k in range(getattr(image, "n_frames", 1)):
        image.seek(k)
        frame = image.convert(mode)
        shown += image.info.get("duration", 0) / 1000
        while len(out) < count and len(out) < round(shown * fps + 1e-6):
            out.append(frame)
    while len(out) < count:
        out.append(frame)
    return out


def main():
    exe = os.environ.get("CAROUSEL_BIN", ".build/release/carousel")
    args = sys.argv[1:]
    images, options = (args[:args.index("--")], args[args.index("--") + 1:]) if "--" in args else (args, [])
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        run([exe, "frames", *images, *options, "-o", str(folder / "exact"), "--quiet"])
        info = json.loads((folder / "exact" / "frames.json").read_text())
        count, fps = len(info["frames"]), info["fps"]
        sample = list(range(0, count, EVERY))
        rows = []
        for name, extra in [("GIF", []), ("WebP (default quality)", []), ("WebP lossless", ["--lossless"]), ("APNG", [])]:
            ext = "gif" if name == "GIF" else ("apng" if name == "APNG" else "webp")
            out = folder / f"out-{len(rows)}.{ext}"
            start = time.perf_counter()
            run([exe, "render", *images, *options, *extra, "-o", str(out), "--quiet"])
            seconds = time.perf_counter() - start
            decoded = frames_of(out, count, fps)
            scores = []
            for i in sample:
                reference = folder / "exact" / f"frame-{i:05d}.png"
                distorted = folder / f"d-{i}.png"
                decoded[i].save(distorted)
                scores.append(compute_ssimulacra2(str(reference), str(distorted)))
            rows.append((name, out.stat().st_size, seconds, sum(scores) / len(scores), min(scores)))
    print(f"{count} timeline frames at {fps} fps; SSIMULACRA2 on every {EVERY}th ({len(sample)} frames)\n")
    print("| format | bytes | encode s | SSIMULACRA2 mean | worst |")
    print("|---|---:|---:|---:|---:|")
    for name, size, seconds, mean, worst in rows:
        print(f"| {name} | {size:,} | {seconds:.2f} | {mean:.1f} | {worst:.1f} |")


if __name__ == "__main__":
    main()
