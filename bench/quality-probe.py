#!/usr/bin/env python3
"""A quick look at one GIF setting on one workload of quality-bench.py: bytes and SSIMULACRA2.

    CAROUSEL_BIN=.build/release/carousel python3 bench/quality-probe.py [WORKLOAD] [RENDER OPTIONS...]
    e.g.  python3 bench/quality-probe.py gradients --dither none

WORKLOAD is samples (the default), photos, gradients or others, with quality-bench.py's images
and options; RENDER OPTIONS are added to them. The probe renders the GIF, expands it to
timeline frames by its delays and scores quality-bench.py's sampled frames against the
exact frames with SSIMULACRA2, beside pngquant's score on each of those frames. It
prints a line of bytes (and the ratio to ffmpeg's GIF), the mean and worst score, the
hold and move means, pngquant's mean and its moving frames' mean, and how many frames fall
more than 5 below pngquant's, and a line of the largest gaps. The exact frames, pngquant's frames and ffmpeg's GIF are made once and
kept in bench/.cache/probe/WORKLOAD (delete the folder after changing `carousel frames`
or the workload); RENDER OPTIONS that change the exact frames (an easing, a duration,
a size: `carousel frames` with them writes other files) get a folder of their own,
bench/.cache/probe/WORKLOAD-HASH (a hash of the options as written), made the same way.
For trying an encoder lever in a minute or two; quality-bench.py is the full comparison.

QUALITY_PROBE_POST, when set, is a command run on the GIF before it is scored, with
the GIF and `-o OUTPUT` after it: e.g. QUALITY_PROBE_POST='gifsicle -O3 --lossy=5'
measures gifsicle's lossy LZW on carousel's GIF. QUALITY_PROBE_FLIP=1 adds a line of FLIP
means (quality-bench.py's settings) over the same frames, all, holds and moves, beside
pngquant's (worked out once and kept in the cache folder as pngquant-flip.json).
"""
import hashlib, json, os, sys, tempfile, time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from benchmodules import load, run_main

quality = load("quality-bench.py")
formats = load("formats-bench.py")
np = quality.np


def flip_files(pair):
    """Mean FLIP error of two image files (reference, test), for a worker process."""
    reference, test = (np.asarray(quality.Image.open(p).convert("RGB")) for p in pair)
    return quality.flip(reference, test)[0]


def carousel_scores(exe, work, args, folder, ref, frames, flip=False):
    """carousel's GIF of the workload with `args` (QUALITY_PROBE_POST run on it when set): its
    bytes, the render's seconds, and SSIMULACRA2 of each of `frames` against the exact frame
    (with `flip`, a pair: those and each frame's mean FLIP error)."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        gif = tmp / "out.gif"
        started = time.perf_counter()
        quality.run([*work.carousel(exe, "render", *args), "-o", gif])
        seconds = time.perf_counter() - started
        if os.environ.get("QUALITY_PROBE_POST"):
            quality.run([*os.environ["QUALITY_PROBE_POST"].split(), gif, "-o", tmp / "post.gif"])
            gif = tmp / "post.gif"
        size = gif.stat().st_size
        shown = formats.frames_of(gif, ref["count"], ref["fps"])
        pairs = []
        for k in frames:
            shown[k].save(tmp / f"d-{k}.png")
            pairs.append((str(folder / "exact" / f"frame-{k:05d}.png"), str(tmp / f"d-{k}.png")))
        with ProcessPoolExecutor(os.cpu_count()) as pool:
            scores = list(pool.map(quality.score_files, pairs))
            return size, seconds, (scores, list(pool.map(flip_files, pairs))) if flip else scores


def prepare(exe, work, folder, args=()):
    """Exact frames, the sampled frames, pngquant's scores and ffmpeg's bytes, made once per workload
    (and per set of render options `args` that changes the frames: see start())."""
    done = folder / "probe.json"
    if done.exists():
        return json.loads(done.read_text())
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / "exact" / "frames.json").exists():
        quality.run(work.carousel(exe, "frames", *args, "-o", folder / "exact"))
    info = json.loads((folder / "exact" / "frames.json").read_text())
    picked, _ = quality.sample(quality.phases(info["frames"]))
    pngquant = quality.pngquant_scores(folder, picked)
    w, h = info["width"], info["height"]
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "exact.rgb"
        with open(raw, "wb") as out:
            for f in info["frames"]:
                image = quality.Image.open(folder / "exact" / f"frame-{f['index']:05d}.png").convert("RGB")
                out.write(image.tobytes())
        quality.run(["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{w}x{h}",
                     "-framerate", str(info["fps"]), "-i", raw, "-filter_complex", quality.FFMPEG_FILTER,
                     "-loop", "0", folder / "ffmpeg.gif"])
    result = {"picked": picked, "pngquant": pngquant, "ffmpeg_bytes": (folder / "ffmpeg.gif").stat().st_size,
              "fps": info["fps"], "phase": quality.phases(info["frames"]), "count": len(info["frames"])}
    done.write_text(json.dumps(result))
    return result


def start(tool):
    """The command line's workload (samples when none is named) and render options, the binary,
    the workload, its cache folder and what prepare() made there; exits on an unknown workload."""
    args = sys.argv[1:]
    name = args.pop(0) if args and not args[0].startswith("-") else "samples"
    exe = os.environ.get("CAROUSEL_BIN", ".build/release/carousel")
    if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
        sys.exit(f"{tool}: {exe}: no carousel binary there (swift build -c release, or set CAROUSEL_BIN)")
    works = [w for w in quality.workloads([name]) if w.name == name]
    if not works:
        sys.exit(f"{tool}: no workload named {name} ({', '.join(quality.WORKLOAD_NAMES)})")
    work = works[0]
    folder = quality.CACHE / "probe" / name
    ref = prepare(exe, work, folder)
    if args:
        # Options that change the exact frames (an easing, a duration, a size) get a cache of their
        # own, since the workload's frames, pngquant's and ffmpeg's would not be theirs; options of
        # the encoder alone (--colors, --dither) leave the frames as they are and use the workload's.
        key = hashlib.sha256("\0".join(args).encode()).hexdigest()[:12]
        own = quality.CACHE / "probe" / f"{name}-{key}"
        if (own / "exact" / "frames.json").exists():
            # Made before (prepare() finishes it if a run stopped after the frames).
            return name, args, exe, work, own, prepare(exe, work, own, args)
        with tempfile.TemporaryDirectory(dir=quality.CACHE / "probe") as tmp:
            made = Path(tmp) / "exact"
            quality.run(work.carousel(exe, "frames", *args, "-o", made))
            if not same_files(made, folder / "exact"):
                print(f"{tool}: {' '.join(args)} changes the exact frames; their cache is {own}", file=sys.stderr, flush=True)
                own.mkdir(parents=True, exist_ok=True)
                made.rename(own / "exact")
                folder, ref = own, prepare(exe, work, own, args)
    return name, args, exe, work, folder, ref


def same_files(a, b):
    """Whether folders `a` and `b` hold the same files, byte for byte."""
    names = sorted(p.name for p in a.iterdir())
    return names == sorted(p.name for p in b.iterdir()) and all((a / n).read_bytes() == (b / n).read_bytes() for n in names)


def pngquant_flip(folder, picked):
    """pngquant's mean FLIP error on each sampled frame, worked out once per cache folder."""
    done = folder / "pngquant-flip.json"
    kept = json.loads(done.read_text()) if done.exists() else {}
    if kept.get("frames") == picked:
        return kept["errors"]
    pairs = [(folder / "exact" / f"frame-{k:05d}.png", folder / "pngquant" / f"frame-{k:05d}.png") for k in picked]
    with ProcessPoolExecutor(os.cpu_count()) as pool:
        errors = list(pool.map(flip_files, pairs))
    done.write_text(json.dumps({"frames": picked, "errors": errors}))
    return errors


def main():
    name, args, exe, work, folder, ref = start("quality-probe")
    flip = os.environ.get("QUALITY_PROBE_FLIP", "") not in ("", "0")
    size, seconds, scores = carousel_scores(exe, work, args, folder, ref, ref["picked"], flip)
    if flip:
        scores, errors = scores
    phase = [ref["phase"][k] for k in ref["picked"]]

    def means(values):
        """The mean of `values` (one per sampled frame) over all, the holds' and the moves'."""
        groups = [values] + [[v for v, p in zip(values, phase) if p == kind] for kind in ("hold", "move")]
        return [sum(g) / len(g) if g else float("nan") for g in groups]
    mean, holds, moves = means(scores)
    theirs, _, theirs_moves = means(ref["pngquant"])
    below = [(k, s, q) for k, s, q in zip(ref["picked"], scores, ref["pngquant"]) if s < q - quality.PER_FRAME_MARGIN]
    worst_gap = min(s - q for s, q in zip(scores, ref["pngquant"]))
    print(f"{name} {' '.join(args) or '(defaults)'}: {size:,} bytes ({size / ref['ffmpeg_bytes']:.3f}x ffmpeg), "
          f"{seconds:.2f} s; SSIMULACRA2 mean {mean:.2f} (pngquant {theirs:.2f}), worst {min(scores):.2f}; "
          f"holds {holds:.2f}, moves {moves:.2f} (pngquant {theirs_moves:.2f}); "
          f"{len(below)} of {len(scores)} frames more than 5 below pngquant (worst gap {worst_gap:.1f})")
    gaps = sorted(zip(ref["picked"], scores, ref["pngquant"]), key=lambda x: x[1] - x[2])[:3]
    print("largest gaps (frame: carousel / pngquant): " +
          ", ".join(f"{k} ({ref['phase'][k]}): {s:.1f} / {q:.1f}" for k, s, q in gaps))
    if flip:
        ours_flip = " / ".join(f"{m:.4f}" for m in means(errors))
        theirs_flip = " / ".join(f"{m:.4f}" for m in means(pngquant_flip(folder, ref["picked"])))
        print(f"FLIP mean / holds / moves: {ours_flip} (pngquant {theirs_flip})")


if __name__ == "__main__":
    run_main("quality-probe", main)
