#!/usr/bin/env python3
"""pngquant's per-frame quality as a GIF: how many bytes a GIF at that quality takes.

    python3 bench/pngquant-gif.py [WORKLOAD]

WORKLOAD is samples (the default), photos, gradients or others; it needs quality-probe.py's
cache for it (run `python3 bench/quality-probe.py WORKLOAD` once). Every exact timeline
frame goes through `pngquant 256` (default dithering), identical consecutive frames are
merged, the frames are written as one GIF with their own palettes kept (Pillow), and
`gifsicle -O3` optimises it. Prints both sizes and the ratio to ffmpeg's GIF of the same
frames. pngquant runs through quality-bench.py's `quantize`, on every core, into the
probe's bench/.cache/probe/WORKLOAD/pngquant/ (the frames quality-probe.py quantized are
kept); the GIFs go to bench/.cache/probe/WORKLOAD/pngquant-gif/.
"""
import json, subprocess, sys
from pathlib import Path

from PIL import Image

from benchmodules import load

BENCH = Path(__file__).resolve().parent
quality = load("quality-bench.py")


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "samples"
    if name not in quality.WORKLOAD_NAMES:
        sys.exit(f"pngquant-gif: no workload named {name} ({', '.join(quality.WORKLOAD_NAMES)})")
    folder = BENCH / ".cache" / "probe" / name
    if not (folder / "exact" / "frames.json").is_file() or not (folder / "probe.json").is_file():
        sys.exit(f"pngquant-gif: {name}: no exact frames in {folder}; run python3 bench/quality-probe.py "
                 f"{name} first")
    info = json.loads((folder / "exact" / "frames.json").read_text())
    out = folder / "pngquant-gif"
    out.mkdir(exist_ok=True)
    frames = [f["index"] for f in info["frames"]]
    pairs = zip((quality.exact_png(folder, k) for k in frames), quality.quantize(folder, frames))
    images, durations, last = [], [], None
    for source, target in pairs:
        exact = source.read_bytes()
        if exact == last:
            durations[-1] += 1000 / info["fps"]
            continue
        last = exact
        images.append(Image.open(target))
        durations.append(1000 / info["fps"])
    gif, optimised = out / "pngquant.gif", out / "pngquant-O3.gif"
    images[0].save(gif, save_all=True, append_images=images[1:], duration=[round(d) for d in durations],
                   loop=0, optimize=False, disposal=1)
    subprocess.run(["gifsicle", "-O3", gif, "-o", optimised], check=True, stderr=subprocess.DEVNULL)
    ffmpeg = json.loads((folder / "probe.json").read_text())["ffmpeg_bytes"]
    for path in (gif, optimised):
        size = path.stat().st_size
        print(f"{name}: {path.name} {size:,} bytes ({size / ffmpeg:.3f}x ffmpeg), {len(images)} frames")


if __name__ == "__main__":
    main()
