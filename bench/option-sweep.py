#!/usr/bin/env python3
"""The per-frame goal of issue 13 on carousel's GIF with any render options.

    python3 bench/option-sweep.py BIN [--every N] [--jobs J] [-- RENDER OPTIONS...]
    e.g.  python3 bench/option-sweep.py .build/release/carousel --every 4 -- --duration 1 --easing linear

quality-probe.py and every-move.py check the goal with quality-bench.py's workloads (their
RENDER OPTIONS are added to the workload's own); transparent-check.py takes any options but
forces a transparent background. This script renders `BIN render -o GIF OPTIONS` and the
exact RGBA frames of the same timeline (`BIN frames -o DIR OPTIONS`; the sample banners
unless OPTIONS name images), expands the GIF to timeline frames by its delays (composited
as transparent-check.py does), and scores every Nth timeline frame (--every, 2 by default;
1 scores them all) and every frame outside a hold (frames.json's phase: move, drag or
settle) with SSIMULACRA2 against the exact frame, beside `pngquant 256` (default dithering)
of that exact frame on its own (`pngquant N` where the options, or a `--config` file they
name, give `--colors N`). Frames with alpha are composited on white, all three alike. It prints one line: the options, the GIF's bytes, the frames scored, carousel's mean and
pngquant's, how many frames fall more than 5 below pngquant's and the worst gap (carousel
minus pngquant) with its timeline frame; then the 5 largest gaps. The goal: no frame more
than 5 below pngquant's, and carousel's mean at least pngquant's.

Scoring runs in J worker processes (--jobs, 2 by default, 64 at most; pngquant runs on every core). A
minute and a half for the sample banners with every default on 2 cores (under a minute with
--every 4). The GIF's frames are held expanded in memory, as transparent-check.py holds them:
fine for the sample banners, large for long timelines of big pictures. Everything is written
to a temporary folder, removed at the end (on Ctrl-C and SIGTERM too). Exit status 0 when
everything was measured, whether or not the goal passes; 64 for arguments of this script that
cannot be run; 1, after carousel's own message, where carousel rejects a render option.
Needs pngquant (apt-get install pngquant) and what quality-bench.py needs (Pillow, numpy,
ssimulacra2, flip-evaluator), which loading it pip-installs where missing.
"""
import json, shlex, sys, tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from PIL import Image

import benchmodules
from benchmodules import is_binary, load, run_main, whole

quality = load("quality-bench.py")          # phases(), quantize(), exact_png(), score_files()
transparent = load("transparent-check.py")  # expanded(), on_white(), run()
GAPS = 5
JOBS_MOST = 64   # worker processes at most: one a core is what pays


def usage(problem):
    benchmodules.usage("option-sweep", problem)


def arguments(args):
    """The binary, --every, --jobs and the render options, or exit 64."""
    if not args or args[0].startswith("-"):
        usage("usage: option-sweep.py BIN [--every N] [--jobs J] [-- RENDER OPTIONS...]")
    exe, args, values = args[0], args[1:], {"--every": 2, "--jobs": 2}
    if not is_binary(exe):
        usage(f"{exe}: no carousel binary there")
    while args and args[0] != "--":
        flag = args.pop(0)
        if flag not in values:
            usage(f"unknown option {flag!r} (render options go after --)")
        values[flag] = whole(args.pop(0) if args else "", most=JOBS_MOST if flag == "--jobs" else None)
        if values[flag] is None:
            usage(f"{flag} takes a whole number, 1 or more" + (f" and at most {JOBS_MOST}" if flag == "--jobs" else ""))
    options = args[1:]
    if any(o in ("-o", "--output", "--format") or o.startswith(("--output=", "--format=")) for o in options):
        usage("the script chooses the output; leave -o and --format out of the render options")
    return exe, values["--every"], values["--jobs"], options


def colors(options):
    """The palette size the render options ask for, 256 when they give none: what pngquant is
    given, so a smaller palette is compared with pngquant's of that size. As carousel reads it:
    the last `--colors N` (or `--colors=N`), else a `--config` file's "colors" (carousel has
    rejected a value it cannot read before this is asked)."""
    def value(name):
        found = None
        for k, option in enumerate(options):
            if option.startswith(name + "="):
                found = option.split("=", 1)[1]
            elif option == name and k + 1 < len(options):
                found = options[k + 1]
        return found
    given = value("--colors")
    if given is None and value("--config") is not None:
        try:
            given = json.loads(Path(value("--config")).read_text()).get("colors")
        except (OSError, ValueError, AttributeError):
            given = None
    try:
        return int(given) if given is not None else 256
    except (TypeError, ValueError):
        return 256


def white_png(rgba, path):
    """`rgba` composited on white (as it is where it has no alpha), saved as an RGB PNG at `path`."""
    Image.fromarray(transparent.on_white(rgba)).save(path)
    return path


def rgba(path):
    return np.asarray(Image.open(path).convert("RGBA"))


def main():
    exe, every, jobs, options = arguments(sys.argv[1:])
    with tempfile.TemporaryDirectory(prefix="option-sweep-") as tmp:
        tmp = Path(tmp)
        gif, white = tmp / "carousel.gif", tmp / "white"
        transparent.run([exe, "render", *options, "--quiet", "-o", gif], "option-sweep")
        transparent.run([exe, "frames", *options, "--quiet", "-o", tmp / "exact"], "option-sweep")
        frames = json.loads((tmp / "exact" / "frames.json").read_text())["frames"]
        phase = quality.phases(frames)
        picked = sorted(set(range(0, len(frames), every)) | {k for k, p in enumerate(phase) if p == "move"})
        shown = transparent.expanded(gif, frames)
        entries = colors(options)
        quantized = quality.quantize(tmp, picked, colors=entries)   # tmp/exact/frame-K.png -> tmp/pngquant/frame-K.png
        white.mkdir()
        pairs = []
        for k, q in zip(picked, quantized):
            exact = white_png(rgba(quality.exact_png(tmp, k)), white / f"exact-{k}.png")
            pairs.append((exact, white_png(shown[k], white / f"carousel-{k}.png")))
            pairs.append((exact, white_png(rgba(q), white / f"pngquant-{k}.png")))
        del shown
        with ProcessPoolExecutor(jobs) as pool:
            scores = list(pool.map(quality.score_files, pairs, chunksize=4))
        ours, theirs = scores[0::2], scores[1::2]
        gaps = sorted(zip((s - q for s, q in zip(ours, theirs)), picked, ours, theirs))
        below = sum(1 for g in gaps if g[0] < -quality.PER_FRAME_MARGIN)
        print(f"{shlex.join(options) or '(defaults)'}: {gif.stat().st_size:,} bytes; {len(picked)} of "
              f"{len(frames)} frames scored (every {every} and every move); SSIMULACRA2 mean "
              f"{np.mean(ours):.2f} (pngquant {entries}: {np.mean(theirs):.2f}); {below} more than "
              f"{quality.PER_FRAME_MARGIN:g} below pngquant's; worst gap {gaps[0][0]:+.2f} (frame {gaps[0][1]})")
        print("largest gaps (frame: carousel / pngquant): " +
              ", ".join(f"{k} ({frames[k].get('phase', phase[k])}): {s:.1f} / {q:.1f} ({g:+.1f})"
                        for g, k, s, q in gaps[:GAPS]), flush=True)


if __name__ == "__main__":
    run_main("option-sweep", main)
