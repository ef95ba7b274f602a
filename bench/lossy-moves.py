#!/usr/bin/env python3
"""gifsicle's lossy LZW on a GIF's moving frames only, its holds kept as they are.

    QUALITY_PROBE_POST='python3 bench/lossy-moves.py 6' python3 bench/quality-probe.py photos
    python3 bench/lossy-moves.py N IN.gif -o OUT.gif
    python3 bench/lossy-moves.py --split IN.gif

Moving frames are nearly all of a carousel GIF's bytes (a frame each 1/fps), while a
hold is one frame shown for seconds: this asks what the bytes goal of quality-bench.py
(0.7x ffmpeg's GIF) costs in quality when only the moving frames pay. Every image of
IN.gif whose delay is at most 10 cs is rewritten by `gifsicle --lossy=N` on its own;
the others are copied untouched; the images are joined again in order with their
positions, delays, transparency and colour tables (`gifsicle --explode`, then gifsicle
on the pieces). Meant as quality-probe.py's QUALITY_PROBE_POST, which scores the result.
`--split` prints how IN.gif's bytes divide between its moving frames (delay at most
10 cs) and the rest, counting each image's descriptor, colour table and data.
"""
import subprocess, sys, tempfile
from pathlib import Path


def images(path):
    """(delay in centiseconds, bytes) of each image of the GIF at `path`, read from its blocks;
    the bytes count the image descriptor, its colour table and its data."""
    data = Path(path).read_bytes()
    at, found, delay = 13, [], 0
    if data[10] & 0x80:
        at += 3 * (2 << (data[10] & 7))
    while at < len(data) and data[at] != 0x3B:
        start, is_image = at, data[at] == 0x2C
        if data[at] == 0x21:
            if data[at + 1] == 0xF9:
                delay = data[at + 4] | data[at + 5] << 8
            at += 2
        elif is_image:
            flags = data[at + 9]
            at += 10 + (3 * (2 << (flags & 7)) if flags & 0x80 else 0) + 1
        else:
            raise SystemExit(f"lossy-moves: {path}: not a GIF block at byte {at}")
        while data[at]:
            at += data[at] + 1
        at += 1
        if is_image:
            found.append((delay, at - start))
            delay = 0
    return found


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--split":
        found = images(sys.argv[2])
        moving = sum(size for delay, size in found if delay <= 10)
        total = sum(size for _, size in found)
        print(f"{sys.argv[2]}: {len(found)} images, {total} bytes; moving frames {moving} bytes "
              f"({100 * moving / total:.1f}%), others {total - moving} bytes ({100 * (total - moving) / total:.1f}%)")
        return
    if len(sys.argv) != 5 or sys.argv[3] != "-o":
        raise SystemExit("usage: lossy-moves.py N IN.gif -o OUT.gif")
    level, source, target = int(sys.argv[1]), sys.argv[2], sys.argv[4]
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["gifsicle", "--explode", source, "-o", f"{tmp}/f"], check=True)
        pieces = sorted(Path(tmp).glob("f.*"), key=lambda p: int(p.suffix[1:]))
        spans = [delay for delay, _ in images(source)]
        if len(pieces) != len(spans):
            raise SystemExit(f"lossy-moves: {source}: {len(pieces)} pieces for {len(spans)} images")
        joined = []
        for piece, delay in zip(pieces, spans):
            if delay <= 10:
                lossy = piece.with_name(piece.name + ".lossy")
                subprocess.run(["gifsicle", f"--lossy={level}", str(piece), "-o", str(lossy)], check=True)
                piece = lossy
            joined.append(str(piece))
        subprocess.run(["gifsicle", *joined, "-o", target], check=True)


if __name__ == "__main__":
    main()
