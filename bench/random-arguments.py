#!/usr/bin/env python3
"""Random command lines, good and bad, against the contract for failures (spec section 6).

    python3 bench/random-arguments.py BIN [--seconds S] [--seed N]
    e.g.  python3 bench/random-arguments.py .build/release/carousel --seconds 200 --seed 11

Each run draws a command (`render` to GIF, WebP, APNG or PNG, `frame`, `frames`, `strip`),
up to six options with values from lists of valid and invalid ones (numbers, durations,
colours, easings, sizes, scripts of one to five steps, enumerations), sometimes a JSON
config file with a few keys (some unknown, some of the wrong type, now and then not JSON),
one to four images (the sample banners or PngSuite's, ../shared/pngsuite beside the
repository) and now and then a bad one (PngSuite's corrupt files, a text file, an empty
file, an empty folder, a missing path); a fifth of the runs write over an existing file.
A run must:

- exit with 0, 1 or 64 (no signal, no other status);
- on failure, print exactly one line on stderr, leave an existing target as it was and
  write no new one (`frames`: no files in its folder), and leave no temporary file;
- on success, print nothing on stderr (`--quiet`) and write a file (`frames`: frames.json).

Prints a line per problem (what went wrong and the command) and a summary with the count of
each exit status; runs until --seconds have passed (60 by default), drawing from --seed (1 by
default). Exit status 0 when no run broke the contract, 1 otherwise, 64 for arguments that
cannot be run.
"""
import json, random, shlex, shutil, subprocess, sys, tempfile, time
from pathlib import Path

from benchmodules import SAMPLE_BANNERS, binary_seconds_seed, pngsuite_images, run_main

TOOL = "random-arguments"


def command(rng, exe, folder, good, bad):
    """A random command line, its subcommand and its output path."""
    pick = rng.choice
    number = lambda: pick(["0", "1", "-1", "2", "3", "7", "16", "64", "255", "256", "1000", "1e3", "0.5", "1.5",
                           "nan", "inf", "-0", "+3", "0x10", " 5", "5 ", "", "9999999999"])
    duration = lambda: pick(["0", "0.01", "0.1", "0.3", "1", "2", "300ms", "1.5s", "-1", "nan", "inf", "10", "1e9",
                             "abc", "0ms"])
    colour = lambda: pick(["#000000", "#101014", "#FFFFFF80", "#00000000", "#fff", "#GGGGGG", "red", "#12345",
                           "#123456789", "", "#ABCDEF00"])
    easing = lambda: pick(["linear", "ease", "ease-in", "ease-out", "ease-in-out", "cubic-bezier(0.1,0.2,0.3,0.4)",
                           "cubic-bezier(1.5,0,0,1)", "cubic-bezier(0,-100,1,100)", "spring(0.5,0.6)", "spring(0,1)",
                           "spring(100,100)", "spring(0.01,0.01)", "bounce", "cubic-bezier(0,0,0)"])

    def step():
        kind = pick(["hold", "next", "prev", "goto", "autoplay", "drag", "release", "swipe", "nxt"])
        if kind == "hold": return f"hold {duration()}"
        if kind in ("next", "prev"): return f"{kind} {pick(['', duration()])} {pick(['', easing()])}".strip()
        if kind == "goto": return f"goto {pick(['0', '1', '2', '3', '9', '-1', 'x'])} {pick(['', duration()])}".strip()
        if kind == "autoplay": return f"autoplay {pick(['', '0', '1', '2', '-1', 'x'])}".strip()
        if kind == "drag":
            return f"drag {pick(['-200', '200', '0', '-5', '1e9', 'x', '-64'])} {pick(['', duration()])} {pick(['', easing()])}".strip()
        if kind == "release": return "release"
        if kind == "swipe": return f"swipe {pick(['next', 'prev', 'up'])} {pick(['', duration()])}".strip()
        return "nxt 3"

    options = {
        "--size": lambda: pick(["64x40", "32x32", "1x1", "3x2", "100x60", "160x90", "0x10", "10x0", "65536x1", "abc",
                                "64x", "x64", "-5x5", "200x120"]),
        "--item-width": number, "--spacing": number, "--align": lambda: pick(["start", "center", "left"]),
        "--clones": lambda: pick(["auto", "0", "1", "2", "5", "set", "-1", "x"]),
        "--fit": lambda: pick(["fill", "fit", "stretch", "cover"]), "--background": colour,
        "--script": lambda: pick([";", "\n"]).join(step() for _ in range(rng.randint(1, 5))),
        "--hold": duration, "--duration": duration, "--easing": easing, "--fps": number,
        "--dots": lambda: pick(["overlay", "footer", "none", "x"]), "--dots-switch": lambda: pick(["half", "start", "end", "x"]),
        "--dot-size": number, "--dot-gap": number, "--dot-color": colour, "--dot-current-color": colour,
        "--touches": lambda: pick(["show", "none"]), "--touch-size": number, "--touch-color": colour, "--quality": number,
        "--loop": lambda: pick(["forever", "once", "1", "2", "65535", "65536", "65537", "0", "x"]),
        "--colors": number, "--dither": lambda: pick(["none", "ordered", "diffusion", "x"]),
    }
    sub = pick(["render", "render", "frame", "frames", "strip"])
    out = folder / ("out-dir" if sub == "frames" else "out." + (pick(["gif", "gif", "gif", "webp", "apng", "png"]) if sub == "render" else "png"))
    args = [exe, sub, "--quiet", "-o", str(out)]
    if sub == "frame":
        args += ["--at", pick(["0", "0.1", "0.5", "1", "99", "-1", "nan", "300ms", "abc"])]
    if rng.random() < 0.15:
        keys = ["fps", "itemWidth", "spacing", "colors", "hold", "duration", "easing", "background", "dots", "size",
                "script", "quality", "loop", "bogusKey"]
        values = [1, 0, -1, 25, 60, 256, 1.5, "0.3", "ease", "#101014", "64x40", None, True, [1], {"a": 1}, "hold 0.1; next 0.1"]
        config = {key: pick(values) for key in rng.sample(keys, rng.randint(1, 3))}
        (folder / "c.json").write_text(json.dumps(config) if rng.random() < 0.9 else "{bad json")
        args += ["--config", str(folder / "c.json")]
    chosen = rng.sample(list(options), rng.randint(0, 6))
    if "--size" not in chosen and rng.random() < 0.9:
        args += ["--size", pick(["64x40", "96x60", "48x48"])]
    for flag in chosen:
        args += [flag, options[flag]()]
    if "--script" not in chosen and rng.random() < 0.5:
        args += ["--script", "hold 0.2; next 0.2; hold 0.1"]
    args += [str(p) for p in rng.sample(good, rng.randint(1, min(4, len(good))))] if rng.random() < 0.9 else []
    if rng.random() < 0.08:
        args.append(str(pick(bad)))
    return args, sub, out


def main():
    exe, seconds, seed = binary_seconds_seed(TOOL, sys.argv[1:], 60)
    suite = pngsuite_images(TOOL, "the sample banners alone, and no corrupt PNGs")
    rng = random.Random(seed)
    statuses, failed, count = {}, 0, 0
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work) / "run"
        folder.mkdir()
        extras = Path(work)
        (extras / "text.png").write_bytes(b"hello")
        (extras / "empty.png").write_bytes(b"")
        (extras / "empty-folder").mkdir()
        good = SAMPLE_BANNERS + [p for p in suite if not p.name.startswith("x")]
        bad = [p for p in suite if p.name.startswith("x")] + [extras / "text.png", extras / "empty.png",
                                                               extras / "empty-folder", extras / "missing.png"]
        while time.monotonic() - start < seconds:
            shutil.rmtree(folder)
            folder.mkdir()
            line, sub, out = command(rng, exe, folder, good, bad)
            existing = rng.random() < 0.2 and sub != "frames"
            if existing:
                out.write_bytes(b"OLD")
            count += 1
            try:
                p = subprocess.run(line, capture_output=True, timeout=120)
            except subprocess.TimeoutExpired:
                failed += 1
                print(f"no exit within 120 s | {shlex.join(line)}", flush=True)
                continue
            statuses[p.returncode] = statuses.get(p.returncode, 0) + 1
            err = p.stderr.decode(errors="replace")
            lines = [l for l in err.split("\n") if l]
            written = out.is_dir() and any(out.iterdir()) if sub == "frames" else out.exists()
            problem = None
            if p.returncode not in (0, 1, 64):
                problem = f"status {p.returncode}"
            elif p.returncode != 0 and len(lines) != 1:
                problem = f"{len(lines)} lines on stderr"
            elif p.returncode != 0 and existing and out.read_bytes() != b"OLD":
                problem = "the existing file changed"
            elif p.returncode != 0 and not existing and written:
                problem = "a failed run left output"
            elif p.returncode == 0 and err.strip():
                problem = "stderr on success"
            elif p.returncode == 0 and not (out / "frames.json" if sub == "frames" else out).exists():
                problem = "no output"
            left = [f.name for f in folder.iterdir() if f.name not in (out.name, "c.json")]
            if left:
                problem = (problem + "; " if problem else "") + f"files left: {left}"
            if problem:
                failed += 1
                print(f"{problem} ({err.strip()[:200]!r}) | {shlex.join(line)}", flush=True)
    shown = ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items()))
    print(f"seed {seed}: {count} runs, {failed} problems in {time.monotonic() - start:.0f} s; exit statuses {shown}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    run_main(TOOL, main)
