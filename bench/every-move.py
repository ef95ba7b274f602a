#!/usr/bin/env python3
"""The per-frame goal on every moving frame of one workload, with other render options.

    CAROUSEL_BIN=.build/release/carousel python3 bench/every-move.py [WORKLOAD] [RENDER OPTIONS...]
    e.g.  python3 bench/every-move.py photos

quality-probe.py scores a sample of the timeline's frames (the first frame of each hold and
a few frames of each move); quality-bench.py scores that sample with every metric and every
moving frame with SSIMULACRA2, with the workload's own options. A hold's frames are one
picture, so its first frame stands for all of them; a move's frames are each a picture of
their own. This script, for trying a lever on the moving frames (quality-probe.py's
counterpart), renders the workload's GIF (quality-bench.py's images and options, the
RENDER OPTIONS added), and scores every frame of every move with SSIMULACRA2 against
the exact frame, beside pngquant's score on that frame (`pngquant 256`, default
dithering, each frame on its own). It prints the moving frames' mean beside
pngquant's, how many fall more than 5 below pngquant's, and the eight largest gaps.
QUALITY_PROBE_POST, when set, runs on the GIF first, as for quality-probe.py.

It uses quality-probe.py's cache (bench/.cache/probe/WORKLOAD: exact frames, ffmpeg's
GIF; WORKLOAD-HASH for options that change the frames), made on first use, and adds
there pngquant's frames of the moving frames the sample leaves out (pngquant/) and their scores (pngquant-moves.json). About a minute for the sample banners
and the photos, three for the gradients, on 2 cores after the cache is made.
Exit status 0 when everything was measured, whether or not the goal passes.
"""
import json

from benchmodules import load

probe = load("quality-probe.py")
quality = probe.quality


def pngquant_moves(folder, ref, moving):
    """pngquant's SSIMULACRA2 on each of the `moving` frames: the sampled ones' from the probe's
    cache, the others scored once and kept in pngquant-moves.json."""
    known = dict(zip(ref["picked"], ref["pngquant"]))
    extra = quality.unsampled_moves(ref["phase"], ref["picked"])
    done = folder / "pngquant-moves.json"
    kept = json.loads(done.read_text()) if done.exists() else {}
    if kept.get("frames") != extra:
        kept = {"frames": extra, "scores": quality.pngquant_scores(folder, extra)}
        done.write_text(json.dumps(kept))
    known.update(zip(extra, kept["scores"]))
    return [known[k] for k in moving]


def main():
    name, args, exe, work, folder, ref = probe.start("every-move")
    moving = [k for k, phase in enumerate(ref["phase"]) if phase == "move"]
    reference = pngquant_moves(folder, ref, moving)
    size, _, scores = probe.carousel_scores(exe, work, args, folder, ref, moving)
    gaps = sorted(zip((s - q for s, q in zip(scores, reference)), moving, scores, reference))
    below = [g for g in gaps if g[0] < -quality.PER_FRAME_MARGIN]
    print(f"{name} {' '.join(args) or '(defaults)'}: {size:,} bytes; {len(moving)} moving frames, SSIMULACRA2 mean "
          f"{sum(scores) / len(scores):.2f} (pngquant {sum(reference) / len(reference):.2f}); "
          f"{len(below)} more than {quality.PER_FRAME_MARGIN:g} below pngquant's")
    print("largest gaps (frame: carousel / pngquant): " +
          ", ".join(f"{k}: {s:.1f} / {q:.1f} ({g:+.1f})" for g, k, s, q in gaps[:8]))


if __name__ == "__main__":
    main()
