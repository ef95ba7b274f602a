#!/usr/bin/env python3
"""Peak memory and time of decoding an interlaced 16-bit RGBA PNG against its
non-interlaced twin (the same pixels), through `carousel frame`.

    CAROUSEL_BIN=.build/release/carousel python3 bench/interlace-memory.py [SIZE]

SIZE defaults to 8192 (an 8192x8192 image, the size cap). Needs numpy and GNU time.
"""
import os, re, struct, subprocess, sys, tempfile, zlib
from pathlib import Path

import numpy as np

ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def write_png(path, image, interlaced):
    h, w, _ = image.shape
    big = image.astype(">u2")
    comp = zlib.compressobj(6)
    parts = []
    def rows(sub):
        for row in sub:
            parts.append(comp.compress(b"\x00" + row.tobytes()))
    if interlaced:
        for x0, y0, dx, dy in ADAM7:
            sub = big[y0::dy, x0::dx]
            if sub.size:
                rows(sub)
    else:
        rows(big)
    parts.append(comp.flush())
    ihdr = struct.pack(">IIBBBBB", w, h, 16, 6, 0, 0, 1 if interlaced else 0)
    data = b"".join(parts)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr))
        for k in range(0, len(data), 1 << 20):
            f.write(chunk(b"IDAT", data[k:k + (1 << 20)]))
        f.write(chunk(b"IEND", b""))


def measure(exe, png, out):
    result = subprocess.run(["/usr/bin/time", "-v", exe, "frame", str(png), "--at", "0", "--size", "64x64",
                             "-o", str(out), "--quiet"], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"carousel failed on {png}: {result.stderr.strip()}")
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr).group(1)) / 1024
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", result.stderr).group(1)
    minutes, seconds = wall.split(":")[-2:]
    return rss, int(minutes) * 60 + float(seconds)


def main():
    exe = os.environ.get("CAROUSEL_BIN", ".build/release/carousel")
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
    y, x = np.mgrid[0:size, 0:size].astype(np.float64)
    image = np.stack([x / size * 65535, y / size * 65535, (x + y) / (2 * size) * 65535,
                      np.full_like(x, 65535)], axis=-1).astype(np.uint16)
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        rows = []
        for interlaced in (False, True):
            png = folder / f"{'adam7' if interlaced else 'plain'}.png"
            write_png(png, image, interlaced)
            rss, seconds = measure(exe, png, folder / f"out-{interlaced}.png")
            rows.append((interlaced, png.stat().st_size, rss, seconds))
        same = (folder / "out-False.png").read_bytes() == (folder / "out-True.png").read_bytes()
    print(f"| {size}x{size} RGBA 16-bit | file bytes | peak RSS MiB | wall s |")
    print("|---|---:|---:|---:|")
    for interlaced, size_bytes, rss, seconds in rows:
        print(f"| {'Adam7' if interlaced else 'not interlaced'} | {size_bytes:,} | {rss:.0f} | {seconds:.2f} |")
    print(f"\nratio interlaced / not: memory {rows[1][2] / rows[0][2]:.2f}x, time {rows[1][3] / rows[0][3]:.2f}x; "
          f"same frame: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
