#!/usr/bin/env python3
"""Where a GIF's bytes go: each hold and move of the timeline, for several GIFs side by side.

    python3 bench/segment-bytes.py WORKLOAD
    python3 bench/segment-bytes.py FRAMES.json A.gif B.gif [...]

With a workload name (samples, photos, gradients, others), reads what the last run of
quality-bench.py left in bench/.cache/quality/WORKLOAD/: the timeline (exact/frames.json)
and carousel's and ffmpeg's GIFs. Otherwise, a `carousel frames` timeline and the GIFs of
that timeline.

The timeline is cut where a frame's phase changes (hold, move, drag, settle): each run of
one phase is a segment. Every image of a GIF is counted in the segment of the timeline frame
it starts at, found from the delays before it; its bytes are its descriptor, colour table
and data (as in lossy-moves.py --split). Prints each segment's bytes for every GIF and
their ratio to the last GIF's, then the totals by phase.
"""
import json, sys
from pathlib import Path

from benchmodules import load

BENCH = Path(__file__).resolve().parent


def load_images():
    return load("lossy-moves.py").images


def segments(frames):
    """(phase, first timeline frame, last) for each run of one phase."""
    out = []
    for f in frames:
        if out and out[-1][0] == f["phase"]:
            out[-1][2] = f["index"]
        else:
            out.append([f["phase"], f["index"], f["index"]])
    return out


def by_segment(gif, timeline, fps, images):
    """Bytes of `gif` in each segment of `timeline`."""
    owner = {}
    for s, (_, first, last) in enumerate(timeline):
        for i in range(first, last + 1):
            owner[i] = s
    sums = [0] * len(timeline)
    start = 0
    for delay, size in images(gif):
        frame = round(start * fps / 100)
        if frame not in owner:
            raise SystemExit(f"segment-bytes: {gif}: an image starts at {start / 100:.2f} s, past the timeline")
        sums[owner[frame]] += size
        start += delay
    return sums


def main():
    args = sys.argv[1:]
    if len(args) == 1:
        folder = BENCH / ".cache" / "quality" / args[0]
        frames_json, gifs = folder / "exact" / "frames.json", [folder / "carousel.gif", folder / "ffmpeg.gif"]
    elif len(args) >= 3:
        frames_json, gifs = Path(args[0]), [Path(a) for a in args[1:]]
    else:
        raise SystemExit("usage: python3 bench/segment-bytes.py WORKLOAD | FRAMES.json A.gif B.gif [...]")
    for path in [frames_json, *gifs]:
        if not path.exists():
            raise SystemExit(f"segment-bytes: {path}: no such file (run bench/quality-bench.py first)")
    info = json.loads(frames_json.read_text())
    timeline, fps = segments(info["frames"]), info["fps"]
    images = load_images()
    columns = [by_segment(g, timeline, fps, images) for g in gifs]
    names = [g.name for g in gifs]
    print("| segment | phase | timeline frames | " + " | ".join(names) + " | "
          + " | ".join(f"{n} / {names[-1]}" for n in names[:-1]) + " |")
    print("|---|---|---|" + "---:|" * (2 * len(names) - 1))
    for s, (phase, first, last) in enumerate(timeline):
        row = [c[s] for c in columns]
        ratios = [f"{v / row[-1]:.3f}" if row[-1] else "n/a" for v in row[:-1]]
        print(f"| {s} | {phase} | {first}-{last} | " + " | ".join(f"{v:,}" for v in row) + " | " + " | ".join(ratios) + " |")
    print()
    for phase in sorted({p for p, _, _ in timeline}):
        totals = [sum(c[s] for s, seg in enumerate(timeline) if seg[0] == phase) for c in columns]
        ratios = [f"{v / totals[-1]:.3f}" if totals[-1] else "n/a" for v in totals[:-1]]
        print(f"{phase}: " + ", ".join(f"{n} {v:,}" for n, v in zip(names, totals)) + "; ratio " + ", ".join(ratios))
    totals = [sum(c) for c in columns]
    print("all: " + ", ".join(f"{n} {v:,}" for n, v in zip(names, totals)) + "; ratio "
          + ", ".join(f"{v / totals[-1]:.3f}" for v in totals[:-1]))


if __name__ == "__main__":
    main()
