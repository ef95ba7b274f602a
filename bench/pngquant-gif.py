#!/usr/bin/env python3
"""pngquant's per-frame quality as a GIF: how many bytes a GIF at that quality takes.

    python3 bench/pngquant-gif.py [WORKLOAD]

WORKLOAD is samples (the default), photos or gradients; it needs quality-probe.py's
cache for it (run `python3 bench/quality-probe.py WORKLOAD` once). Every exact timeline
frame goes through `pngquant 256` (default dithering), identical consecutive frames are
merged, the frames are written as one GIF with their own palettes kept (Pillow), and
`gifsicle -O3` optimises it. Prints both sizes and the ratio to ffmpeg's GIF of the same
frames. Files go to bench/.cache/probe/WORKLOAD/pngquant-gif/.
"""
import json, os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from PIL import Image

BENCH = Path(__file__).resolve().parent


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "samples"
    folder = BENCH / ".cache" / "probe" / name
    info = json.loads((folder / "exact" / "frames.json").read_text())
    out = folder / "pngquant-gif"
    (out / "frames").mkdir(parents=True, exist_ok=True)

    def quantized(frame):
        source = folder / "exact" / f"frame-{frame['index']:05d}.png"
        target = out / "frames" / source.name
        if not target.exists():
            subprocess.run(["pngquant", "256", "--force", "--output", target, "--", source], check=True)
        return source, target

    with ThreadPoolExecutor(os.cpu_count()) as pool:
        pairs = list(pool.map(quantized, info["frames"]))
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
