#!/usr/bin/env python3
"""Random renders checked against `carousel frames`: what the suite checks on chosen cases,
on cases nobody chose.

    python3 bench/random-renders.py BIN [--seconds S] [--seed N]
    e.g.  python3 bench/random-renders.py .build/release/carousel --seconds 240 --seed 4

Each configuration draws a viewport (33x21 to 160x90), an item width, spacing, alignment,
clones, fit, background (opaque, transparent or half transparent), fps, dots, the touch
indicator and a script of one to five steps (holds, moves with any easing, goto, autoplay,
drags, releases, swipes), over one to four of the sample banners or of the PngSuite images
(../shared/pngsuite beside the repository; the sample banners alone when it is absent). For
each it writes the exact frames (`BIN frames`) and checks:

- the APNG decodes, with Pillow, to every timeline frame exactly;
- the lossless WebP decodes, with Pillow, to every timeline frame exactly, the colour of a
  fully transparent pixel too;
- the lossy WebP shows every timeline frame's transparency exactly, and its colours near the
  frame's (`near`, below);
- the GIF, with a palette size and dithering drawn too, is the same bytes rendered twice, and
  on an opaque background no pixel changes on screen where the exact frames stand still
  (composited as transparent-check.py does); with all 256 colours it shows each frame's
  transparency exactly (alpha 128 and up drawn) and its colours near the frame's;
- `BIN frame --at t` is the frame of `frames` at t.

A configuration that `frames` refuses must fail with one line and status 1 or 64. Prints a
line per problem (what differed, and the options and images to reproduce it) and a summary;
runs until --seconds have passed (120 by default), drawing from --seed (1 by default). Exit
status 0 when nothing differed, 1 otherwise, 64 for arguments that cannot be run. Needs
Pillow and numpy.
"""
import json, random, shlex, shutil, subprocess, sys, tempfile, time
from pathlib import Path

import numpy as np
from PIL import Image

from benchmodules import SAMPLE_BANNERS, binary_seconds_seed, load, pngsuite_images, run_main

TOOL = "random-renders"
transparent_check = load("transparent-check.py")
formats_bench = load("formats-bench.py")


class Draw:
    """One configuration's options and images, drawn from `rng`, and the GIF's own options,
    drawn from `gif_rng` (so a seed draws the configurations it drew before the GIF's
    options were drawn too)."""

    def __init__(self, rng, suite, gif_rng):
        self.rng = rng
        w, h = rng.choice([(64, 40), (96, 54), (120, 80), (48, 48), (160, 90), (33, 21)])
        o = ["--size", f"{w}x{h}"]
        maybe = lambda p: rng.random() < p
        if maybe(0.5): o += ["--item-width", str(rng.randint(max(1, w // 3), w))]
        if maybe(0.5): o += ["--spacing", str(rng.choice([0, 1, 4, 12]))]
        if maybe(0.3): o += ["--align", rng.choice(["start", "center"])]
        if maybe(0.3): o += ["--clones", rng.choice(["auto", "set", "3"])]
        if maybe(0.3): o += ["--fit", rng.choice(["fill", "fit", "stretch"])]
        if maybe(0.4): o += ["--background", rng.choice(["#101014", "#00000000", "#FF000080", "#FFFFFF"])]
        if maybe(0.7): o += ["--script", "; ".join(self.step() for _ in range(rng.randint(1, 5)))]
        if maybe(0.3): o += ["--fps", str(rng.choice([5, 12, 25, 30, 50]))]
        if maybe(0.3): o += ["--dots", rng.choice(["overlay", "footer", "none"])]
        if maybe(0.2): o += ["--dots-switch", rng.choice(["half", "start", "end"])]
        if maybe(0.2): o += ["--dot-size", str(rng.choice([1, 3, 8, 20])), "--dot-gap", str(rng.choice([0, 2, 8]))]
        if maybe(0.2): o += ["--touches", rng.choice(["show", "none"]), "--touch-size", str(rng.choice([1, 10, 44]))]
        self.options = o
        g = []
        if gif_rng.random() < 0.3: g += ["--colors", str(gif_rng.choice([2, 3, 16, 64, 128, 255]))]
        if gif_rng.random() < 0.3: g += ["--dither", gif_rng.choice(["none", "ordered", "diffusion"])]
        self.gif_options = g
        pool = SAMPLE_BANNERS if not suite or maybe(0.5) else suite
        self.images = [str(p) for p in rng.sample(pool, rng.randint(1, min(4, len(pool))))]
        self.opaque = not any(c in o for c in ("#00000000", "#FF000080"))

    def easing(self):
        return self.rng.choice(["linear", "ease", "ease-in", "ease-out", "ease-in-out", "cubic-bezier(0.1,0.2,0.3,0.4)",
                                "cubic-bezier(0.5,-2,0.5,3)", "spring(0.5,0.6)", "spring(0.2,0.3)"])

    def step(self):
        rng = self.rng
        kind = rng.choice(["hold", "next", "prev", "goto", "autoplay", "drag", "release", "swipe"])
        d = rng.choice(["0.1", "0.2", "0.3", "0.05", "0.5"])
        if kind == "hold": return f"hold {d}"
        if kind in ("next", "prev"): return f"{kind} {d} {self.easing()}"
        if kind == "goto": return f"goto {rng.randint(0, 3)} {d}"
        if kind == "autoplay": return "autoplay 1"
        if kind == "drag": return f"drag {rng.choice([-150, -60, -20, -3, 5, 40, 120])} {d}"
        if kind == "release": return "release"
        return f"swipe {rng.choice(['next', 'prev'])} {d}"

    def __str__(self):
        gif = f" (the GIF also {shlex.join(self.gif_options)})" if self.gif_options else ""
        return shlex.join(self.options + self.images) + gif


def box(a, k=4):
    """The mean of each k x k window of `a` (height x width x channels), one at every pixel
    that has room for it, as floats."""
    a = a.astype(np.float64)
    if a.shape[0] < k or a.shape[1] < k:
        return a
    c = np.pad(a, ((1, 0), (1, 0), (0, 0))).cumsum(0).cumsum(1)
    return (c[k:, k:] - c[:-k, k:] - c[k:, :-k] + c[:-k, :-k]) / (k * k)


def near(shown, exact, share):
    """How `shown` (a decoded frame, RGBA) fails to look like `exact`, or None: a pixel whose
    transparency differs (alpha 128 and up is drawn), or more than `share` of the frame's 4x4
    windows (one at every pixel that has room for it) opaque in both with a mean colour more
    than 40 levels off in a channel. A pattern dither averages out over its window; a frame
    drawn from the wrong place, palette or rectangle does not. The shares leave room over
    what the build that added them gave in 423 configurations drawn as here: the GIF at 256
    colours 0.8% at worst (with a few colours far more, so it is checked at 256 alone), the
    lossy WebP 4.3%, on a 33x21 picture, where the build before, whose frames blended over the
    canvas, gave 26.3% (docs/behaviour.md, *WebP key frames*)."""
    drawn, wanted = shown[..., 3] >= 128, exact[..., 3] >= 128
    if (drawn != wanted).any():
        return f"{int(np.sum(drawn != wanted))} pixels' transparency differs"
    solid = box(((shown[..., 3] == 255) & (exact[..., 3] == 255))[..., None])[..., 0] == 1
    off = np.mean(solid & (np.abs(box(shown[..., :3]) - box(exact[..., :3])).max(axis=2) > 40))
    if off > share:
        return f"{off:.1%} of its 4x4 windows more than 40 levels off"
    return None


def check(exe, draw, folder):
    """The problems of one configuration, as strings."""
    def run(*args):
        p = subprocess.run([exe, *args, *draw.options, *draw.images, "--quiet"], capture_output=True, timeout=300)
        return p.returncode, p.stderr.decode(errors="replace").strip()
    exact_dir = folder / "exact"
    shutil.rmtree(exact_dir, ignore_errors=True)
    status, err = run("frames", "-o", str(exact_dir))
    if status != 0:
        return [] if status in (1, 64) and err and "\n" not in err else [f"frames: status {status}, {err!r}"]
    info = json.loads((exact_dir / "frames.json").read_text())
    frames, fps = info["frames"], info["fps"]
    exact = [np.asarray(Image.open(exact_dir / f"frame-{i:05d}.png").convert("RGBA")) for i in range(len(frames))]
    problems = []
    for name, extra in (("APNG", []), ("lossless WebP", ["--lossless"]), ("lossy WebP", [])):
        out = folder / ("a.apng" if name == "APNG" else "w.webp")
        status, err = run("render", *extra, "-o", str(out))
        if status != 0:
            problems.append(f"{name}: status {status}, {err!r}")
            continue
        decoded = [np.asarray(a) for a in formats_bench.frames_of(out, len(frames), fps, mode="RGBA")]
        if name == "lossy WebP":
            differ = [(i, why) for i, (a, b) in enumerate(zip(decoded, exact)) if (why := near(a, b, 0.10))]
            if differ:
                problems.append(f"{name}: timeline frame {differ[0][0]}: {differ[0][1]} ({len(differ)} frames)")
            continue
        differ = [i for i, (a, b) in enumerate(zip(decoded, exact)) if not np.array_equal(a, b)]
        if differ:
            problems.append(f"{name}: timeline frames {differ[:5]} of {len(frames)} differ")
    gifs = [folder / "g1.gif", folder / "g2.gif"]
    statuses = [run("render", *draw.gif_options, "-o", str(g)) for g in gifs]
    if any(s != 0 for s, _ in statuses):
        problems.append(f"GIF: {statuses}")
    else:
        if gifs[0].read_bytes() != gifs[1].read_bytes():
            problems.append("GIF: two renders differ")
        screen = transparent_check.expanded(gifs[0], frames)
        if "--colors" not in draw.gif_options:
            differ = [(i, why) for i, (a, b) in enumerate(zip(screen, exact)) if (why := near(a, b, 0.02))]
            if differ:
                problems.append(f"GIF: timeline frame {differ[0][0]}: {differ[0][1]} ({len(differ)} frames)")
        if draw.opaque:
            for i in range(1, len(frames)):
                moved = np.sum(np.all(exact[i] == exact[i - 1], axis=2) & np.any(screen[i] != screen[i - 1], axis=2))
                if moved:
                    problems.append(f"GIF: {moved} pixels change at timeline frame {i} ({frames[i]['phase']}) where the exact frames stand still")
                    break
    k = draw.rng.randrange(len(frames))
    status, err = run("frame", "--at", f"{k / fps + 0.0001:.6f}", "-o", str(folder / "f.png"))
    if status != 0:
        problems.append(f"frame --at: status {status}, {err!r}")
    elif not np.array_equal(np.asarray(Image.open(folder / "f.png").convert("RGBA")), exact[k]):
        problems.append(f"frame --at {k / fps + 0.0001:.6f}: not timeline frame {k}")
    return problems


def main():
    exe, seconds, seed = binary_seconds_seed(TOOL, sys.argv[1:], 120)
    suite = [p for p in pngsuite_images(TOOL, "the sample banners alone") if not p.name.startswith("x")]
    rng, gif_rng = random.Random(seed), random.Random(seed + 1_000_000)
    count = failed = 0
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        while time.monotonic() - start < seconds:
            draw = Draw(rng, suite, gif_rng)
            count += 1
            for problem in check(exe, draw, Path(folder)):
                failed += 1
                print(f"{problem} | {draw}", flush=True)
    print(f"seed {seed}: {count} configurations, {failed} problems in {time.monotonic() - start:.0f} s")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    run_main(TOOL, main)
