#!/usr/bin/env python3
"""Shimmer and SSIMULACRA2 of carousel's GIF on a transparent background.

    python3 bench/transparent-check.py [BIN] [--every N] [--frames A-B] [--per-frame] [--against OLD_BIN]
                                       [--beside] [-- RENDER OPTIONS...]
    e.g.  python3 bench/transparent-check.py .build/release/carousel

Renders the GIF (`carousel render --background '#00000000'`, the sample banners unless
options are given) and the exact RGBA frames (`carousel frames`), expands the GIF by its
delays (composited here as giflib's readers and browsers do; Pillow decodes each image's
LZW data alone), and prints:
- transparency: pixels shown transparent where the exact frame's alpha is 128 or more, or
  shown opaque where it is below (0 when the GIF is right);
- shimmer: pixels whose exact RGBA is unchanged from the frame before (fully transparent
  pixels compare equal whatever their colour) but whose shown pixel changed, counted as
  bench/quality-bench.py counts them on opaque backgrounds;
- SSIMULACRA2 of every 12th timeline frame (every Nth with `--every N`; 1 scores them all,
  which a frame gone wrong between the samples needs), each composited on white, against
  the exact frame composited the same way, the worst frame's index, and the last scored
  frame's score (after a gesture, the last timeline frame shows the rest). With --frames A-B,
  only timeline frames A to B (both included) are scored, every Nth from A.
With --per-frame, also each timeline frame with shimmer: its pixel count, the largest change
in a channel, and the phases of it and the frame before (hold, move, drag, settle). With
--against OLD_BIN, OLD_BIN's GIF of the same options is scored on the same frames too (its
bytes, mean and worst score), and the frames whose scores differ are summed up: how many are
lower and higher, and the largest drop and gain (frame: old -> new).
With --beside, the same frames are scored for the same render on an opaque white background
(`--background '#ffffffff'`; scored against the transparent exact frames on white, which are its
own exact frames where no pixel is partly transparent)
and for `pngquant 256` on each exact frame (RGBA, composited on white), and the three means
are printed, with each scored frame's three scores under --per-frame: what the transparent
background costs the GIF, and where pngquant stands.
The sample banners fill the view, so no pixel turns transparent and no frame is cleared
(docs/behaviour.md, *Transparent backgrounds*); `-- --spacing 16 --item-width 560` moves
gaps over the items, which clears frames (and with `--colors` below 128, takes whole
frames).
Needs Pillow, numpy and ssimulacra2 (pip), and pngquant for --beside (apt-get install pngquant).
"""
import io, json, struct, subprocess, sys, tempfile
from pathlib import Path

import numpy as np
from PIL import Image
from ssimulacra2 import compute_ssimulacra2

from benchmodules import is_binary, run_main, whole


def decoded(gif):
    """Each image of the GIF as a viewer shows it once drawn (RGBA), and its delay in
    centiseconds. Composited here as giflib's readers and browsers do (the suite's
    DecodedGIF): an image's pixels of its transparent index leave the canvas as it was,
    disposal 2 clears the image's rectangle to transparent once shown, 3 restores what was
    under it. Pillow only decodes each image's LZW data, handed over as a GIF of that one
    image: its own compositing shows no transparency at all after a first image without a
    transparent index, and clears an image without one to the background colour, opaque."""
    data = Path(gif).read_bytes()
    if data[:6] not in (b"GIF87a", b"GIF89a"):
        sys.exit(f"transparent-check: {gif}: not a GIF")
    width, height, packed = struct.unpack_from("<HHB", data, 6)
    pos, shared = 13, None
    if packed & 0x80:
        shared = data[pos:pos + (3 << ((packed & 7) + 1))]
        pos += len(shared)
    canvas = np.zeros((height, width, 4), np.int16)
    images, delay, disposal, transparent = [], 0, 0, None

    def blocks(pos):
        while data[pos]:
            pos += data[pos] + 1
        return pos + 1

    while pos < len(data) and data[pos] != 0x3B:
        if data[pos] == 0x21:
            if data[pos + 1] == 0xF9:
                flags, delay, index = struct.unpack_from("<BHB", data, pos + 3)
                disposal, transparent = (flags >> 2) & 7, index if flags & 1 else None
            pos = blocks(pos + 2)
            continue
        if data[pos] != 0x2C:
            sys.exit(f"transparent-check: {gif}: unexpected byte {data[pos]:#x} at {pos}")
        left, top, w, h, flags = struct.unpack_from("<HHHHB", data, pos + 1)
        pos += 10
        table = shared
        if flags & 0x80:
            table = data[pos:pos + (3 << ((flags & 7) + 1))]
            pos += len(table)
        if table is None:
            sys.exit(f"transparent-check: {gif}: image {len(images)} has no colour table")
        end = blocks(pos + 1)
        bits = (len(table) // 3).bit_length() - 2
        alone = (b"GIF89a" + struct.pack("<HHBBB", w, h, 0x80 | bits, 0, 0) + table
                 + struct.pack("<BHHHHB", 0x2C, 0, 0, w, h, flags & 0x40) + data[pos:end] + b"\x3b")
        indices = np.asarray(Image.open(io.BytesIO(alone)))
        pos = end
        colours = np.frombuffer(table, np.uint8).reshape(-1, 3).astype(np.int16)
        under = canvas.copy() if disposal == 3 else None
        y0, x0, y1, x1 = min(top, height), min(left, width), min(height, top + h), min(width, left + w)
        area, part = canvas[y0:y1, x0:x1], indices[:y1 - y0, :x1 - x0]
        drawn = part != transparent if transparent is not None else np.ones(part.shape, bool)
        area[drawn, :3] = colours[part[drawn]]
        area[drawn, 3] = 255
        images.append((canvas.copy(), delay))
        if disposal == 2:
            canvas[y0:y1, x0:x1] = 0
        elif disposal == 3:
            canvas = under
        delay, disposal, transparent = 0, 0, None
    return images


def expanded(gif, frames):
    """The GIF's shown picture at each timeline frame (RGBA), by cumulative delays."""
    images = decoded(gif)
    pictures = [picture for picture, _ in images]
    starts = np.cumsum([0] + [f["delay"] for f in frames])[:-1]
    ends = np.cumsum([delay for _, delay in images])
    return [pictures[int(np.searchsorted(ends, t, side="right"))] for t in starts]


def clear_transparent(a):
    a = a.copy()
    a[a[..., 3] == 0] = 0
    return a


def on_white(a):
    a = a.astype(np.float64)
    alpha = a[..., 3:4] / 255
    return (a[..., :3] * alpha + 255 * (1 - alpha)).round().astype(np.uint8)


def ppm(pixels):
    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(pixels), "RGB").save(buffer, "PPM")
    buffer.seek(0)
    return buffer


def binary(path, script):
    """`path`, or exits with one line when no executable is there."""
    if not is_binary(path):
        sys.exit(f"{script}: {path}: no carousel binary there")
    return path


def run(command, script):
    """Runs a carousel command, or exits with one line after carousel's own error."""
    if subprocess.run(command).returncode != 0:
        # Control characters in an option are shown escaped, so the line stays one line.
        shown = " ".join(map(str, command[1:])).encode("unicode_escape").decode("ascii")
        sys.exit(f"{script}: carousel failed (above): {shown}")


def main():
    args = sys.argv[1:]
    exe = binary(args.pop(0) if args and not args[0].startswith("--") else ".build/release/carousel",
                 "transparent-check")
    every, per_frame, against, beside, span = 12, False, None, False, None
    while args and args[0] in ("--every", "--frames", "--per-frame", "--against", "--beside"):
        flag = args.pop(0)
        if flag == "--per-frame":
            per_frame = True
            continue
        if flag == "--beside":
            beside = True
            continue
        if not args:
            sys.exit(f"transparent-check: {flag} takes a value")
        value = args.pop(0)
        if flag == "--every":
            every = whole(value)
            if every is None:
                sys.exit("transparent-check: --every takes a whole number of frames, 1 or more")
        elif flag == "--frames":
            first, _, last = value.partition("-")
            first, last = whole(first, least=0), whole(last, least=0)
            if first is None or last is None or first > last:
                sys.exit("transparent-check: --frames takes A-B, two whole numbers with A at most B")
            span = (first, last)
        else:
            against = binary(value, "transparent-check: --against")
    options = args[1:] if args[:1] == ["--"] else args
    with tempfile.TemporaryDirectory() as tmp:
        gif, folder = Path(tmp) / "carousel.gif", Path(tmp) / "frames"
        common = [*options, "--background", "#00000000", "--quiet"]
        run([exe, "render", *common, "-o", gif], "transparent-check")
        run([exe, "frames", *common, "-o", folder], "transparent-check")
        frames = json.loads((folder / "frames.json").read_text())["frames"]
        exact = [np.asarray(Image.open(p).convert("RGBA")).astype(np.int16) for p in sorted(folder.glob("*.png"))]
        shown = expanded(gif, frames)
        wrong = sum(int(np.count_nonzero((e[..., 3] < 128) != (s[..., 3] == 0))) for e, s in zip(exact, shown))
        shimmer, lines = 0, []
        for k in range(1, len(exact)):
            still = np.all(clear_transparent(exact[k]) == clear_transparent(exact[k - 1]), axis=-1)
            moved = np.any(clear_transparent(shown[k]) != clear_transparent(shown[k - 1]), axis=-1)
            changed = still & moved
            count = int(np.count_nonzero(changed))
            shimmer += count
            if per_frame and count:
                largest = int(np.abs(shown[k][changed] - shown[k - 1][changed]).max())
                lines.append(f"frame {k} ({frames[k - 1]['phase']} -> {frames[k]['phase']}): shimmer {count} px, "
                             f"largest change {largest}")
        if span and span[0] >= len(exact):
            sys.exit(f"transparent-check: --frames {span[0]}-{span[1]}: the GIF has {len(exact)} timeline frames")
        scored = range(span[0], min(span[1] + 1, len(exact)), every) if span else range(0, len(exact), every)
        scores = score(exact, shown, scored)
        worst = scored[int(np.argmin(scores))]
        print(f"{gif.stat().st_size} bytes, {len(exact)} timeline frames, shimmer {shimmer} px, "
              f"transparency wrong {wrong} px")
        within = f" of frames {scored[0]}-{scored[-1]}" if span else ""
        print(f"SSIMULACRA2 on white, every {every} frame(s){within} ({len(scores)}): mean {np.mean(scores):.2f}, "
              f"worst {min(scores):.2f} (frame {worst}), last scored {scores[-1]:.2f} (frame {scored[-1]})")
        for line in lines:
            print(line)
        if beside:
            opaque = Path(tmp) / "opaque.gif"
            run([exe, "render", *options, "--background", "#ffffffff", "--quiet", "-o", opaque], "transparent-check")
            white = score(exact, expanded(opaque, frames), scored)
            quantized = score(exact, {k: pngquant(folder / f"frame-{k:05d}.png", Path(tmp)) for k in scored}, scored)
            print(f"beside: transparent {np.mean(scores):.2f}, opaque white {np.mean(white):.2f}, "
                  f"pngquant 256 {np.mean(quantized):.2f} (means of the same {len(scores)} frames)")
            if per_frame:
                for k, t, w, q in zip(scored, scores, white, quantized):
                    print(f"frame {k} ({frames[k]['phase']}): transparent {t:.2f}, opaque white {w:.2f}, pngquant {q:.2f}")
        if against:
            old = Path(tmp) / "against.gif"
            run([against, "render", *common, "-o", old], "transparent-check")
            before = score(exact, expanded(old, frames), scored)
            changes = [(k, b, a) for k, b, a in zip(scored, before, scores) if abs(a - b) > 1e-9]
            lower = [c for c in changes if c[2] < c[1]]
            print(f"against {against}: {old.stat().st_size} bytes, mean {np.mean(before):.2f}, worst {min(before):.2f}; "
                  f"of {len(scores)} frames scored, {len(lower)} lower, {len(changes) - len(lower)} higher, the rest alike")
            higher = [c for c in changes if c[2] > c[1]]
            for name, side, pick in (("largest drop", lower, min), ("largest gain", higher, max)):
                if side:
                    k, b, a = pick(side, key=lambda c: c[2] - c[1])
                    print(f"  {name}: frame {k}: {b:.2f} -> {a:.2f}")


def pngquant(path, tmp):
    """`pngquant 256` of the PNG at `path`, as RGBA."""
    out = tmp / "pngquant.png"
    try:
        result = subprocess.run(["pngquant", "256", "--force", "--output", str(out), str(path)], capture_output=True)
    except FileNotFoundError:
        sys.exit("transparent-check: --beside needs pngquant (apt-get install pngquant)")
    if result.returncode != 0:
        sys.exit(f"transparent-check: pngquant failed on {path.name} (apt-get install pngquant)")
    return np.asarray(Image.open(out).convert("RGBA")).astype(np.int16)


def score(exact, shown, frames):
    """SSIMULACRA2 on white of `shown` against `exact` at each of `frames` (100 where equal)."""
    scores = []
    for k in frames:
        a, b = on_white(exact[k]), on_white(shown[k])
        scores.append(100.0 if np.array_equal(a, b) else float(compute_ssimulacra2(ppm(a), ppm(b))))
    return scores

if __name__ == "__main__":
    run_main("transparent-check", main)
