#!/usr/bin/env python3
"""Benchmark of carousel's compact GIF encoding (`--dither none`) against ffmpeg's palettegen/paletteuse pipeline.

    python3 bench/encoder-bench.py            # builds carousel into .build-bench first
    CAROUSEL_BIN=/path/to/carousel python3 bench/encoder-bench.py

Prints a Markdown report on stdout (progress goes to stderr). Exit status 0 when
everything was measured, whether or not the targets pass; 2 when something could
not be measured. bench/README.md explains the workload and every column.
"""
import json, math, os, shlex, shutil, struct, subprocess, sys, time, zipfile
from pathlib import Path

import numpy as np

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
CACHE = BENCH / ".cache"
RUN = CACHE / "run"
W, H, FPS, FRAMES, PITCH, PAGES = 640, 360, 25, 250, 640, 5
REPEATS = 3
PHOTOS = ["astronaut.png", "chelsea.png", "coffee.png", "motorcycle_left.png", "rocket.jpg"]
OPTIONS = ["--size", f"{W}x{H}", "--hold", "1.5", "--duration", "0.5", "--easing", "ease-in-out",
           "--fps", str(FPS), "--dots", "none"]
COMPACT = ["--dither", "none"]   # the compact encoding; bench/quality-bench.py measures the default
X_EXPR = ("round(640+mod((floor(t/2)+if(lt(t-2*floor(t/2),1.5),0,"
          "0.5-0.5*cos(PI*(t-2*floor(t/2)-1.5)/0.5)))*640,3200))")
FILTER = (f"crop={W}:{H}:x='{X_EXPR}':y=0,split[a][b];[a]palettegen=stats_mode=diff[p];"
          "[b][p]paletteuse=dither=sierra2_4a:diff_mode=rectangle")
APT = ["ffmpeg", "gifsicle", "imagemagick", "libgif-dev", "libpng-dev", "pkg-config", "time", "gcc"]
PSNR_CAP = 99.0  # dB for a frame with MSE 0 (and the most any frame counts for)


class Unmeasured(Exception):
    """Something the report needs could not be measured."""


def log(message):
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def run(cmd, **kw):
    """Runs cmd, returns its stdout as bytes; raises Unmeasured on failure."""
    cmd = [str(c) for c in cmd]
    r = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    if r.returncode != 0:
        err = (r.stderr.strip() or r.stdout.strip()).decode(errors="replace")[-1500:]
        raise Unmeasured(f"{shlex.join(cmd)[:300]} exited {r.returncode}: {err}")
    return r.stdout


def best_time(cmd, repeats=REPEATS):
    """Best wall time in seconds of `repeats` runs of cmd."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run(cmd)
        times.append(time.perf_counter() - start)
    return min(times)


def real_convert():
    """ImageMagick's convert (not a stand-in of the same name), or None."""
    for c in ("/usr/bin/convert", shutil.which("convert")):
        if c and os.access(c, os.X_OK):
            r = subprocess.run([c, "-version"], capture_output=True)
            if r.returncode == 0 and b"ImageMagick" in r.stdout:
                return c
    return None


def missing_tools():
    checks = {t: shutil.which(t) for t in ("ffmpeg", "gifsicle", "gcc", "pkg-config")}
    checks.update({"convert (ImageMagick)": real_convert(), "/usr/bin/time": os.access("/usr/bin/time", os.X_OK),
                   "gif_lib.h": Path("/usr/include/gif_lib.h").exists(),
                   "libpng.pc": checks["pkg-config"] and not subprocess.run(["pkg-config", "--exists", "libpng"]).returncode})
    return [name for name, found in checks.items() if not found]


def ensure_tools():
    missing = missing_tools()
    if not missing:
        return
    log(f"missing {', '.join(missing)}: installing {' '.join(APT)} with apt-get")
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run(sudo + ["apt-get", "update", "-qq"], env=env)
    run(sudo + ["apt-get", "install", "-y", "-qq", *APT], env=env)
    if missing_tools():
        raise Unmeasured(f"still missing after apt-get install: {', '.join(missing_tools())}")


def carousel_bin():
    if os.environ.get("CAROUSEL_BIN"):
        path = Path(os.environ["CAROUSEL_BIN"]).resolve()
    else:
        # Built as scripts/make-release builds the release archive's binary: the Swift runtime
        # linked in statically, which starts in about half the time of the toolchain's shared
        # libraries (docs/gif-quality.md, *Speed*).
        log("building carousel: swift build -c release --product carousel --static-swift-stdlib --scratch-path .build-bench")
        run(["swift", "build", "-c", "release", "--product", "carousel", "--static-swift-stdlib", "--scratch-path", ".build-bench"],
            cwd=ROOT)
        path = ROOT / ".build-bench" / "release" / "carousel"
    if not os.access(path, os.X_OK):
        raise Unmeasured(f"no carousel executable at {path}")
    return path


def photos():
    """photo-1.png ... photo-5.png from scikit-image's wheel (downloaded once into the cache)."""
    return wheel_images(PHOTOS, CACHE / "photos", "photo")


def wheel_images(names, folder, stem):
    """The pictures `names` of scikit-image's wheel (skimage/data/NAME) as PNGs folder/STEM-1.png,
    STEM-2.png, ... in order: the wheel downloaded once into the cache, a JPEG converted with ffmpeg."""
    paths = [folder / f"{stem}-{i}.png" for i in range(1, len(names) + 1)]
    if all(p.exists() for p in paths):
        return paths
    wheels = sorted((CACHE / "wheel").glob("scikit_image-*.whl"))
    if not wheels:
        log("downloading the scikit-image wheel for its sample photographs")
        run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
             "scikit-image", "-d", CACHE / "wheel"])
        wheels = sorted((CACHE / "wheel").glob("scikit_image-*.whl"))
        if not wheels:
            raise Unmeasured("pip download gave no scikit-image wheel")
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(wheels[-1]) as z:
        for name, path in zip(names, paths):
            source = folder / ("source-" + name)
            source.write_bytes(z.read("skimage/data/" + name))
            if name.endswith(".png"):
                source.replace(path)
            else:
                run(["ffmpeg", "-v", "error", "-y", "-i", source, "-frames:v", "1", path.with_suffix(".tmp.png")])
                path.with_suffix(".tmp.png").replace(path)
                source.unlink()
    return paths


def raw_frames(inputs, pix_fmt="rgb24", width=W, height=H):
    """Frames ffmpeg decodes from `inputs` (its input arguments) as an (n, h, w, c) uint8 array."""
    out = run(["ffmpeg", "-v", "error", *inputs, "-f", "rawvideo", "-pix_fmt", pix_fmt, "-"])
    channels = {"rgb24": 3, "rgba": 4}[pix_fmt]
    return np.frombuffer(out, np.uint8).reshape(-1, height, width, channels)


def opaque_rgb(rgba, what):
    if rgba[..., 3].min() != 255:
        raise Unmeasured(f"{what} has transparent pixels; RGB PSNR would be ill-defined")
    return np.ascontiguousarray(rgba[..., :3])


def gif_delays(path):
    """Per-image delays in centiseconds from gifsicle --info (an image shows no delay when it is 0)."""
    info = run(["gifsicle", "--info", path]).decode()
    delays = []
    for block in info.split("\n  + image #")[1:]:
        delay = 0
        for word, value in zip(block.split(), block.split()[1:]):
            if word == "delay":
                delay = round(float(value.rstrip("s")) * 100)
        delays.append(delay)
    return delays


def decode_gif(path):
    """(frames, delays) of a GIF: ffmpeg composites, gifsicle tells the delays."""
    frames = raw_frames(["-i", path, "-fps_mode", "passthrough"])
    delays = gif_delays(path)
    if len(frames) != len(delays):
        raise Unmeasured(f"{path.name}: ffmpeg decoded {len(frames)} frames, gifsicle lists {len(delays)}")
    return frames, delays


def png_width(path):
    with open(path, "rb") as f:
        return struct.unpack(">I", f.read(24)[16:20])[0]


def round_half_away(v):
    return math.floor(v + 0.5) if v >= 0 else -math.floor(-v + 0.5)


def ffmpeg_x(t):
    """The crop x of X_EXPR at time t, evaluated as ffmpeg's expression evaluator does."""
    u = t - 2 * math.floor(t / 2)
    e = 0 if u < 1.5 else 0.5 - 0.5 * math.cos(math.pi * (u - 1.5) / 0.5)
    d = (math.floor(t / 2) + e) * 640
    return round_half_away(640 + (d - math.floor(d / 3200) * 3200))


def shown_frames(gif_delays_cs, source_delays_cs):
    """For each source frame k, the GIF frame whose delay interval holds k's start time."""
    gif_starts = np.concatenate([[0], np.cumsum(gif_delays_cs)[:-1]])
    source_starts = np.concatenate([[0], np.cumsum(source_delays_cs)[:-1]])
    return np.searchsorted(gif_starts, source_starts, side="right") - 1


def psnr(mse):
    return PSNR_CAP if mse == 0 else min(PSNR_CAP, 10 * math.log10(255 ** 2 / mse))


def fidelity(decoded, shown, reference):
    """Mean PSNR over the timeline, PSNR of the mean MSE, worst frame PSNR."""
    mses = []
    for k, ref in enumerate(reference):
        diff = decoded[shown[k]].astype(np.int32) - ref
        mses.append(float(np.mean(diff * diff)))
    mean_mse = float(np.mean(mses))
    return {"psnr": float(np.mean([psnr(m) for m in mses])),
            "psnr_mse": math.inf if mean_mse == 0 else 10 * math.log10(255 ** 2 / mean_mse),
            "worst": min(psnr(m) for m in mses)}


def shimmer(decoded, shown, reference):
    """Pixels identical in exact frames k-1 and k but not in the GIF frames shown then."""
    bad = 0
    for k in range(1, len(reference)):
        if shown[k] != shown[k - 1]:
            still = np.all(reference[k] == reference[k - 1], axis=-1)
            moved = np.any(decoded[shown[k]] != decoded[shown[k - 1]], axis=-1)
            bad += int(np.count_nonzero(still & moved))
    return bad


def distinct_frames(reference):
    return 1 + sum(bool(np.any(reference[k] != reference[k - 1])) for k in range(1, len(reference)))


def evaluate(name, path, seconds, reference, source_delays):
    log(f"decoding and comparing {path.name}")
    decoded, delays = decode_gif(path)
    shown = shown_frames(delays, source_delays)
    return {"name": name, "seconds": seconds, "bytes": path.stat().st_size, "frames": len(delays),
            "length": sum(delays) / 100, "shimmer": shimmer(decoded, shown, reference),
            **fidelity(decoded, shown, reference)}


def peak_rss_mib(cmd):
    out = RUN / "rss.txt"
    run(["/usr/bin/time", "-f", "%M", "-o", out, *cmd])
    return int(out.read_text().split()[-1]) / 1024


def floor_ms(inputs, gif):
    exe = RUN / "floor"
    flags = run(["pkg-config", "--cflags", "--libs", "libpng"]).decode().split()
    run(["gcc", "-O2", BENCH / "floor.c", "-o", exe, *flags, "-lgif"])
    fields = dict(f.split("=") for f in run([exe, *inputs, gif]).decode().split())
    return {k: float(v) for k, v in fields.items()}


def report(rows, distinct, memory, floor, notes):
    ours, ff = rows[0], rows[1]
    print("| pipeline | wall s | bytes | GIF frames | GIF length s | mean PSNR dB | PSNR of mean MSE dB "
          "| worst frame dB | shimmer px |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['name']} | {r['seconds']:.3f} | {r['bytes']} | {r['frames']} | {r['length']:.2f} "
              f"| {r['psnr']:.2f} | {r['psnr_mse']:.2f} | {r['worst']:.2f} | {r['shimmer']} |")
    print()
    speed, size = ff["seconds"] / ours["seconds"], ours["bytes"] / ff["bytes"]
    floor_s = floor["floor_ms"] / 1000
    rss250, rss1000 = memory
    targets = [
        ("speed ffmpeg/ours", f"{speed:.2f}x", ">= 15x", speed >= 15),
        ("bytes ours/ffmpeg", f"{size:.3f}", "<= 0.7", size <= 0.7),
        ("PSNR ours - ffmpeg", f"{ours['psnr'] - ff['psnr']:+.2f} dB", ">= +4 dB", ours["psnr"] >= ff["psnr"] + 4),
        ("peak RSS 250 / 1000 frames", f"{rss250:.1f} / {rss1000:.1f} MiB", "<= 64 MiB, growth <= 10%",
         max(rss250, rss1000) <= 64 and rss1000 <= rss250 * 1.1),
        ("wall time / floor", f"{ours['seconds']:.3f} s / {floor_s:.3f} s = {ours['seconds'] / floor_s:.2f}x",
         "<= 2x", ours["seconds"] <= 2 * floor_s),
        ("shimmer pixels", str(ours["shimmer"]), "0", ours["shimmer"] == 0),
        ("GIF frames / distinct exact frames", f"{ours['frames']} / {distinct}", "equal", ours["frames"] == distinct),
    ]
    print("| target | measured | goal | result |")
    print("|---|---|---|---|")
    for name, value, goal, ok in targets:
        print(f"| {name} | {value} | {goal} | {'PASS' if ok else 'FAIL'} |")
    print()
    print(f"floor: PNG decode {floor['png_ms']:.1f} ms + giflib re-encode {floor['gif_ms']:.1f} ms "
          f"= {floor['floor_ms']:.1f} ms (re-encoded {int(floor['gif_bytes'])} bytes)")
    for note in notes:
        print(note)


def references(exe, inputs, notes):
    """carousel's exact frames and frames.json, and the crops of strip.png that ffmpeg's pipeline shows."""
    log("strip and exact frames (carousel strip, carousel frames)")
    run([exe, "strip", *inputs, *OPTIONS, "-o", RUN / "strip.png", "--quiet"])
    if png_width(RUN / "strip.png") != (PAGES + 2) * PITCH:
        raise Unmeasured(f"strip.png is {png_width(RUN / 'strip.png')} px wide, expected {(PAGES + 2) * PITCH}")
    run([exe, "frames", *inputs, *OPTIONS, "-o", RUN / "exact", "--quiet"])
    info = json.loads((RUN / "exact" / "frames.json").read_text())["frames"]
    exact = opaque_rgb(raw_frames(["-i", RUN / "exact" / "frame-%05d.png"], "rgba"), "exact frames")
    if len(info) != FRAMES or len(exact) != FRAMES:
        raise Unmeasured(f"carousel frames gave {len(exact)} frames ({len(info)} in frames.json), expected {FRAMES}")
    strip = opaque_rgb(raw_frames(["-i", RUN / "strip.png"], "rgba", (PAGES + 2) * PITCH)[0], "strip.png")
    xs = [ffmpeg_x(i / FPS) for i in range(FRAMES)]
    crops = np.stack([strip[:, x:x + W] for x in xs])
    same = all(np.array_equal(exact[f["index"]], strip[:, f["stripX"]:f["stripX"] + W]) for f in info)
    gaps = [abs(f["stripX"] - x) for f, x in zip(info, xs)]
    notes.append(f"sanity: exact frames are crops of strip.png at frames.json stripX: {'yes' if same else 'NO'}; "
                 f"carousel's stripX differs from ffmpeg's x in {sum(g > 0 for g in gaps)} of {FRAMES} frames "
                 f"(by up to {max(gaps)} px: each pipeline is compared with its own reference)")
    check = fidelity(exact, np.arange(FRAMES), exact)
    notes.append(f"sanity: exact frames against themselves: mean PSNR {check['psnr']:.2f} dB, "
                 f"PSNR of mean MSE {check['psnr_mse']:.2f} dB")
    return exact, [f["delay"] for f in info], crops


def wall_times(ours_cmd):
    """Best-of-REPEATS seconds: ours, ffmpeg, then ImageMagick and gifsicle on ffmpeg.gif."""
    log(f"timing ours, ffmpeg, ImageMagick, gifsicle ({REPEATS} runs each)")
    ffmpeg = ["ffmpeg", "-v", "error", "-y", "-loop", "1", "-framerate", str(FPS), "-t", str(FRAMES // FPS),
              "-i", RUN / "strip.png", "-filter_complex", FILTER, "-loop", "0", RUN / "ffmpeg.gif"]
    return (best_time(ours_cmd(RUN / "ours.gif")), best_time(ffmpeg),
            best_time([real_convert(), RUN / "ffmpeg.gif", "-layers", "Optimize", RUN / "im.gif"]),
            best_time(["gifsicle", "-O3", RUN / "ffmpeg.gif", "-o", RUN / "gsc.gif"]))


def memory(ours_cmd, notes):
    """Peak RSS in MiB of our render, for 250 frames and for 1000 (autoplay 4 = 4 x 5 x 2 s x 25 fps)."""
    log("peak RSS (250 and 1000 frames)")
    rss250 = peak_rss_mib(ours_cmd(RUN / "ours-250.gif"))
    rss1000 = peak_rss_mib(ours_cmd(RUN / "ours-1000.gif", "--script", "autoplay 4"))
    frames1000 = sum(gif_delays(RUN / "ours-1000.gif")) * FPS / 100
    if frames1000 != 4 * FRAMES:
        raise Unmeasured(f"the autoplay 4 render lasts {frames1000:g} frames, expected {4 * FRAMES}")
    same = (RUN / "ours.gif").read_bytes() == (RUN / "ours-250.gif").read_bytes()
    notes.append(f"memory: peak RSS {rss250:.1f} MiB for {FRAMES} frames, {rss1000:.1f} MiB for "
                 f"{frames1000:.0f} (--script 'autoplay 4'); repeated render byte-identical: {'yes' if same else 'NO'}")
    return rss250, rss1000


def main():
    ensure_tools()
    exe = carousel_bin()
    inputs = photos()
    if RUN.exists():
        shutil.rmtree(RUN)
    RUN.mkdir(parents=True)
    wheel = next((CACHE / "wheel").glob("*.whl"), None)
    notes = [f"carousel: {exe}", f"photos: {', '.join(PHOTOS)} from {wheel.name if wheel else 'the cache'}"]

    def ours_cmd(out, *extra):
        return [exe, "render", *inputs, *OPTIONS, *COMPACT, *extra, "-o", out, "--quiet"]

    exact, exact_delays, crops = references(exe, inputs, notes)
    ours_s, ffmpeg_s, im_s, gsc_s = wall_times(ours_cmd)
    rows = [evaluate("ours (carousel render)", RUN / "ours.gif", ours_s, exact, exact_delays)]
    distinct = distinct_frames(exact)
    del exact
    for name, gif, seconds in [("ffmpeg palettegen/paletteuse", "ffmpeg.gif", ffmpeg_s),
                               ("ImageMagick -layers Optimize", "im.gif", im_s), ("gifsicle -O3", "gsc.gif", gsc_s)]:
        rows.append(evaluate(name, RUN / gif, seconds, crops, [100 // FPS] * FRAMES))
    notes.append(f"distinct consecutive frames: carousel's exact {distinct}, ffmpeg's crops {distinct_frames(crops)}")
    rss = memory(ours_cmd, notes)
    log("floor (bench/floor.c)")
    report(rows, distinct, rss, floor_ms(inputs, RUN / "ours.gif"), notes)


if __name__ == "__main__":
    try:
        main()
    except (Unmeasured, OSError, ValueError) as error:
        print(f"encoder-bench: could not measure: {error}", file=sys.stderr)
        sys.exit(2)
