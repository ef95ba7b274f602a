#!/usr/bin/env python3
"""A quick look at one GIF setting: bytes and SSIMULACRA2 of the sample banners' GIF.

    CAROUSEL_BIN=.build/release/carousel python3 bench/quality-probe.py [RENDER OPTIONS...]
    e.g.  python3 bench/quality-probe.py --dither ordered

Renders the default sample carousel with the given options, expands the GIF to timeline
frames by its delays (Pillow), and scores every 8th frame against `carousel frames`
with SSIMULACRA2, split into hold and move frames. For trying an encoder lever in a
minute; bench/quality-bench.py is the full comparison with ffmpeg and pngquant.
"""
import importlib.util, json, os, subprocess, sys, tempfile
from pathlib import Path

from ssimulacra2 import compute_ssimulacra2

BENCH = Path(__file__).resolve().parent


def main():
    options = sys.argv[1:]
    spec = importlib.util.spec_from_file_location("formats_bench", BENCH / "formats-bench.py")
    formats = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(formats)
    exe = os.environ.get("CAROUSEL_BIN", ".build/release/carousel")
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        subprocess.run([exe, "frames", *options, "-o", str(folder / "exact"), "--quiet"], check=True)
        info = json.loads((folder / "exact" / "frames.json").read_text())
        gif = folder / "out.gif"
        subprocess.run([exe, "render", *options, "-o", str(gif), "--quiet"], check=True)
        frames = formats.frames_of(gif, len(info["frames"]), info["fps"])
        scores = {"hold": [], "move": []}
        for i in range(0, len(frames), 8):
            frames[i].save(folder / "d.png")
            score = compute_ssimulacra2(str(folder / "exact" / f"frame-{i:05d}.png"), str(folder / "d.png"))
            scores["move" if info["frames"][i]["phase"] == "move" else "hold"].append(score)
        every = scores["hold"] + scores["move"]
        print(f"{' '.join(options) or '(defaults)'}: {gif.stat().st_size:,} bytes; SSIMULACRA2 mean {sum(every) / len(every):.1f}, "
              f"worst {min(every):.1f}; holds {sum(scores['hold']) / len(scores['hold']):.1f}, "
              f"moves {sum(scores['move']) / max(1, len(scores['move'])):.1f} ({len(every)} frames)")


if __name__ == "__main__":
    main()
