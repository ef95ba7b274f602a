#!/usr/bin/env python3
"""Whether two animated WebPs show the same pictures at the same times.

    python3 bench/webp-same-frames.py A.webp B.webp

Decodes every frame of both with Pillow (as RGBA, composited as a viewer shows them) and,
at the start of every frame of A, compares what A shows with each frame of B shown during
that frame. Two files of one timeline made in different parts (a lossless part's first
frame is whole where one part would have had a rectangle of what changed, and frame
boundaries may differ) show the same when nothing differs. Prints the frame counts, the
two lengths in milliseconds and the number of mismatches; exit status 0 when the lengths
match and nothing differs, 1 otherwise. Needs Pillow.
"""
import sys

from PIL import Image


def timeline(path):
    """Each frame's start and end in milliseconds, and its RGBA bytes."""
    image = Image.open(path)
    frames, start = [], 0
    for index in range(image.n_frames):
        image.seek(index)
        image.load()
        duration = image.info.get("duration", 0)
        frames.append((start, start + duration, image.convert("RGBA").tobytes()))
        start += duration
    return frames


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 64
    a, b = timeline(sys.argv[1]), timeline(sys.argv[2])
    mismatches, j = 0, 0
    for start, end, pixels in a:
        while j < len(b) and b[j][1] <= start:
            j += 1
        k = j
        while k < len(b) and b[k][0] < end:
            mismatches += b[k][2] != pixels
            k += 1
    print(f"frames {len(a)} / {len(b)}, {a[-1][1]} / {b[-1][1]} ms, {mismatches} mismatches")
    return 0 if mismatches == 0 and a[-1][1] == b[-1][1] else 1


if __name__ == "__main__":
    sys.exit(main())
