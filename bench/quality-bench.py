#!/usr/bin/env python3
"""Perceptual quality benchmark of carousel's GIF encoder (SSIMULACRA2, FLIP, bytes, time, shimmer).

    CAROUSEL_BIN=/path/to/carousel python3 bench/quality-bench.py   # a built binary
    python3 bench/quality-bench.py                                  # builds into .build-bench first
    CAROUSEL_BIN=... python3 bench/quality-bench.py samples         # only some workloads

Three workloads: the sample banners with every default, the five photographs of
bench/encoder-bench.py with its options, and the gradient-heavy set of
bench/make-gradients.py in a peek layout. Each is rendered by `carousel render`
and, from carousel's exact frames (`carousel frames`, same images and options), by
ffmpeg (palettegen/paletteuse), gifsicle -O3 (ffmpeg's GIF re-optimised) and
pngquant (each frame on its own; the per-frame reference). The GIFs are decoded,
laid on the timeline by their delays and compared with the exact frames: a sample of
frames with every metric, and every moving frame of carousel's GIF and pngquant's
with SSIMULACRA2, for the per-frame goal. `carousel frames` is timed too, against
`render`, and its files compared with the exact frames' run byte for byte.

Prints a Markdown report on stdout, progress on stderr. Exit status 0 when
everything was measured, whether or not the goals pass; 2 when something could
not be measured. bench/README.md explains the workloads, the sampling and every
column. Installs what is missing: ffmpeg, pngquant, gifsicle and time with
apt-get; numpy, pillow, ssimulacra2 and flip-evaluator with pip.
"""
import filecmp, io, json, math, os, shlex, shutil, subprocess, sys, time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")   # FLIP uses OpenMP; the benchmark machine is shared

BENCH = Path(__file__).resolve().parent
CACHE = BENCH / ".cache"
RUN = CACHE / "quality"
APT = {"ffmpeg": "ffmpeg", "ffprobe": "ffmpeg", "pngquant": "pngquant", "gifsicle": "gifsicle", "/usr/bin/time": "time"}
PIP = {"numpy": "numpy", "PIL": "pillow", "ssimulacra2": "ssimulacra2", "flip_evaluator": "flip-evaluator"}
FFMPEG_FILTER = ("split[a][b];[a]palettegen=stats_mode=diff[p];"
                 "[b][p]paletteuse=dither=sierra2_4a:diff_mode=rectangle")
CAROUSEL_REPEATS, FFMPEG_REPEATS, FRAMES_REPEATS = 3, 2, 2
FRAMES_LIMIT = 3.0       # carousel frames within 3x carousel render's wall time
UNIFORM_SAMPLES = 18     # every k-th timeline frame, k = round(frames / 18)
PER_FRAME_MARGIN = 5.0   # each frame's SSIMULACRA2 >= pngquant's - 5
TILE = 64                # the FLIP error map is averaged over TILE x TILE tiles to find the worst area
WORST_ROWS = 8


def log(message):
    print(f"[quality] {message}", file=sys.stderr, flush=True)


def ensure_python_packages():
    import importlib, importlib.util
    missing = [pkg for module, pkg in PIP.items() if importlib.util.find_spec(module) is None]
    if missing:
        log(f"pip install {' '.join(missing)}")
        r = subprocess.run([sys.executable, "-m", "pip", "install", "-q", *missing], stdout=sys.stderr)
        importlib.invalidate_caches()
        if r.returncode != 0 or any(importlib.util.find_spec(m) is None for m in PIP):
            print(f"quality-bench: could not measure: pip install {' '.join(missing)} failed", file=sys.stderr)
            sys.exit(2)


ensure_python_packages()

import numpy as np
from PIL import Image
import flip_evaluator
from ssimulacra2 import compute_ssimulacra2


from benchmodules import load

encoder_bench = load("encoder-bench.py")   # photos(), run(), GIF delays, timeline
make_gradients = load("make-gradients.py")
Unmeasured, run = encoder_bench.Unmeasured, encoder_bench.run


def ensure_tools():
    def missing():
        return sorted({pkg for tool, pkg in APT.items()
                       if not (os.access(tool, os.X_OK) if tool.startswith("/") else shutil.which(tool))})
    if not missing():
        return
    log(f"apt-get install -y {' '.join(missing())}")
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run(sudo + ["apt-get", "update", "-qq"], env=env)
    run(sudo + ["apt-get", "install", "-y", "-qq", *missing()], env=env)
    if missing():
        raise Unmeasured(f"still missing after apt-get install: {', '.join(missing())}")


# ---------------------------------------------------------------- workloads

class Workload:
    def __init__(self, name, what, inputs, options):
        self.name, self.what, self.inputs, self.options = name, what, [str(p) for p in inputs], options
        self.dir = RUN / name

    def carousel(self, exe, command, *rest):
        return [str(exe), command, *self.inputs, *self.options, *rest, "--quiet"]


# Pictures of scikit-image's wheel that no other workload uses and no setting was tuned on:
# the `others` workload, a check that what the three workloads measure holds beyond them.
OTHERS = [("hubble_deep_field.jpg", "a deep-field photograph, dark with specks of colour"),
          ("ihc.png", "a stained tissue micrograph"),
          ("logo.png", "a logo with transparent parts"),
          ("color.png", "a colour wheel 371 pixels across, scaled up"),
          ("camera.png", "a grey photograph"),
          ("grass.png", "a grey texture")]
MAIN_WORKLOADS = ("samples", "photos", "gradients")
WORKLOAD_NAMES = MAIN_WORKLOADS + ("others",)


def workloads(chosen):
    """The workloads `chosen` (the three of the goals when none is); the images of those not
    chosen are not fetched or made. `others` is measured only when named."""
    chosen = chosen or MAIN_WORKLOADS
    ensure_tools()   # the photographs are extracted with ffmpeg
    photos = encoder_bench.photos() if "photos" in chosen else []
    gradients = make_gradients.make(CACHE / "gradients") if "gradients" in chosen else []
    others = encoder_bench.wheel_images([n for n, _ in OTHERS], CACHE / "others", "other") if "others" in chosen else []
    every = [
        Workload("samples", "the five sample banners, every default (640x360, hold 2 s, 0.3 s ease-in-out moves, "
                 "25 fps, page dots overlay)", [], []),
        Workload("photos", "the five photographs of encoder-bench.py (" + ", ".join(encoder_bench.PHOTOS) +
                 "), fitted to 640x360, no dots", photos, encoder_bench.OPTIONS),
        Workload("gradients", f"{len(gradients)} gradient-heavy images of make-gradients.py (" +
                 ", ".join(f"{p.name}: {what}" for p, what in gradients) + "), peek layout with page dots",
                 [p for p, _ in gradients],
                 ["--size", "1125x665", "--item-width", "1035", "--spacing", "16", "--hold", "1.5",
                  "--duration", "0.5", "--easing", "ease-in-out", "--fps", "25"]),
        Workload("others", "six pictures of scikit-image's wheel that no setting was tuned on (" +
                 ", ".join(f"{name}: {what}" for name, what in OTHERS) + "), with the photographs' options",
                 others, encoder_bench.OPTIONS),
    ]
    return [w for w in every if w.name in chosen]


# ---------------------------------------------------------------- exact frames and the timeline

def exact_frames(exe, work):
    """carousel frames: the timeline (frames.json) and every exact frame as one raw RGB file."""
    log(f"{work.name}: exact frames (carousel frames)")
    run(work.carousel(exe, "frames", "-o", work.dir / "exact"))
    info = json.loads((work.dir / "exact" / "frames.json").read_text())
    frames, w, h = info["frames"], info["width"], info["height"]
    with open(work.dir / "exact.rgb", "wb") as raw:
        for f in frames:
            path = work.dir / "exact" / f"frame-{f['index']:05d}.png"
            rgba = np.asarray(Image.open(path).convert("RGBA"))
            if rgba.shape[:2] != (h, w):
                raise Unmeasured(f"{path.name} is {rgba.shape[1]}x{rgba.shape[0]}, frames.json says {w}x{h}")
            if rgba[..., 3].min() != 255:
                raise Unmeasured(f"{path.name} has transparent pixels; the metrics compare opaque RGB")
            raw.write(np.ascontiguousarray(rgba[..., :3]).tobytes())
    exact = np.memmap(work.dir / "exact.rgb", np.uint8, "r", shape=(len(frames), h, w, 3))
    return info, exact


def phases(frames):
    """'hold' or 'move' per frame: frames.json's phase when it has one, else whether the position is a whole page."""
    out = []
    for f in frames:
        if "phase" in f:
            out.append("hold" if f["phase"] == "hold" else "move")
        else:
            out.append("hold" if abs(f["position"] - round(f["position"])) < 1e-9 else "move")
    return out


def sample(phase):
    """Every k-th timeline frame, the first frame of every hold, and the frames at 1/4, 1/2 and 3/4 of every move."""
    n = len(phase)
    k = max(1, round(n / UNIFORM_SAMPLES))
    picked = set(range(0, n, k))
    runs, start = [], 0
    for i in range(1, n + 1):
        if i == n or phase[i] != phase[start]:
            runs.append((phase[start], start, i - 1))
            start = i
    for kind, a, b in runs:
        if kind == "hold":
            picked.add(a)
        else:
            picked.update(a + (b - a) * q // 4 for q in (1, 2, 3))
    return sorted(picked), k


# ---------------------------------------------------------------- encoders

def time_v(cmd, out):
    """Wall seconds and peak RSS (MiB, /usr/bin/time -v) of one run of cmd."""
    start = time.perf_counter()
    run(["/usr/bin/time", "-v", "-o", out, *cmd])
    seconds = time.perf_counter() - start
    for line in Path(out).read_text().splitlines():
        if "Maximum resident set size" in line:
            return seconds, int(line.split(":")[-1]) / 1024
    raise Unmeasured(f"/usr/bin/time -v gave no maximum resident set size in {out}")


def best_of(cmd, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run(cmd)
        times.append(time.perf_counter() - start)
    return min(times)


def settle():
    """Writes the page cache's dirty pages out (os.sync) before a timed command, so no tool is
    timed while the kernel writes back what came before it (the exact frames are hundreds of MB)."""
    os.sync()


def encode(exe, work, info):
    """The GIFs: carousel render (timed, RSS), ffmpeg on the raw exact frames (timed), gifsicle -O3 on ffmpeg's."""
    d, w, h, fps = work.dir, info["width"], info["height"], info["fps"]
    ffmpeg_cmd = ["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{w}x{h}",
                  "-framerate", str(fps), "-i", d / "exact.rgb", "-filter_complex", FFMPEG_FILTER,
                  "-loop", "0", d / "ffmpeg.gif"]
    # The two alternate (carousel, ffmpeg, carousel, ...), so a spell of load on the machine
    # (writing back the exact frames, another tenant) falls on both rather than on one.
    log(f"{work.name}: carousel render x{CAROUSEL_REPEATS} and ffmpeg palettegen/paletteuse x{FFMPEG_REPEATS}, alternating")
    runs, ffmpeg_times = [], []
    for k in range(max(CAROUSEL_REPEATS, FFMPEG_REPEATS)):
        if k < CAROUSEL_REPEATS:
            settle()
            runs.append(time_v(work.carousel(exe, "render", "-o", d / "carousel.gif"), d / "time.txt"))
        if k < FFMPEG_REPEATS:
            settle()
            ffmpeg_times.append(best_of(ffmpeg_cmd, 1))
    carousel = {"seconds": min(s for s, _ in runs), "rss": max(r for _, r in runs)}
    ffmpeg = {"seconds": min(ffmpeg_times)}
    carousel["frames"] = export(exe, work)
    log(f"{work.name}: gifsicle -O3 x{FFMPEG_REPEATS}")
    settle()
    gifsicle_cmd = ["gifsicle", "-O3", d / "ffmpeg.gif", "-o", d / "gifsicle.gif"]
    gifsicle = {"seconds": best_of(gifsicle_cmd, FFMPEG_REPEATS)}
    work.commands = {"carousel": shlex.join(work.carousel(exe, "render", "-o", "carousel.gif")),
                     "ffmpeg": shlex.join(str(c) for c in ffmpeg_cmd).replace(str(d) + "/", ""),
                     "gifsicle": shlex.join(str(c) for c in gifsicle_cmd).replace(str(d) + "/", "")}
    rows = {"carousel": carousel, "ffmpeg": ffmpeg, "gifsicle": gifsicle}
    for name, row in rows.items():
        path = d / f"{name}.gif"
        row["bytes"] = path.stat().st_size
        row["delays"] = encoder_bench.gif_delays(path)
        row["length"] = sum(row["delays"]) / 100
    return rows


def pngquant(work, picked):
    """pngquant 256 (default dithering) on each sampled exact frame; {index: RGB array}."""
    log(f"{work.name}: pngquant 256 on {len(picked)} sampled frames")
    return {k: np.asarray(Image.open(path).convert("RGB")) for k, path in zip(picked, quantize(work.dir, picked))}


def exact_png(folder, k):
    """Timeline frame k of `carousel frames` in folder/exact."""
    return folder / "exact" / f"frame-{k:05d}.png"


def quantize(folder, frames, subdir="pngquant", colors=256):
    """`pngquant 256` (default dithering; `colors` in place of 256 when given) on each of `frames`
    (timeline indices) of the exact frames in `folder`, into folder/subdir, on every core; a frame
    already there is kept, whatever `colors` made it (a subdir each). The PNGs, in the order of
    `frames`."""
    (folder / subdir).mkdir(exist_ok=True)
    jobs = [(exact_png(folder, k), folder / subdir / f"frame-{k:05d}.png") for k in frames]
    with ThreadPoolExecutor(os.cpu_count()) as pool:
        list(pool.map(lambda job: run(["pngquant", str(colors), "--force", "--output", job[1], "--", job[0]]),
                      [job for job in jobs if not job[1].exists()]))
    return [out for _, out in jobs]


def pngquant_scores(folder, frames, subdir="pngquant"):
    """pngquant's SSIMULACRA2 on each of `frames` of the exact frames in `folder` (``quantize``),
    scored in one worker process a core."""
    pairs = list(zip((exact_png(folder, k) for k in frames), quantize(folder, frames, subdir)))
    with ProcessPoolExecutor(os.cpu_count()) as pool:
        return list(pool.map(score_files, pairs))


# ---------------------------------------------------------------- decoding and metrics

class GifStream:
    """The composited frames of a GIF, decoded by ffmpeg one at a time, forward only."""

    def __init__(self, path, w, h, count):
        self.path, self.size, self.count = path, w * h * 3, count
        self.shape, self.index, self.frame = (h, w, 3), -1, None
        self.err = open(path.with_suffix(".decode.txt"), "wb")
        self.proc = subprocess.Popen(["ffmpeg", "-v", "error", "-i", str(path), "-fps_mode", "passthrough",
                                      "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.err)

    def _read(self):
        data = self.proc.stdout.read(self.size)
        return data if len(data) == self.size else None

    def get(self, i):
        while self.index < i:
            data = self._read()
            if data is None:
                raise Unmeasured(f"{self.path.name}: ffmpeg decoded only {self.index + 1} frames, needed {i + 1}")
            self.frame, self.index = np.frombuffer(data, np.uint8).reshape(self.shape), self.index + 1
        return self.frame

    def close(self):
        extra = 0
        while self._read() is not None:
            extra += 1
        status = self.proc.wait()
        self.err.close()
        decoded = self.index + 1 + extra
        if status != 0 or decoded != self.count:
            raise Unmeasured(f"{self.path.name}: ffmpeg decoded {decoded} frames (exit {status}), "
                             f"gifsicle lists {self.count}")


def ppm(pixels):
    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(pixels), "RGB").save(buffer, "PPM")
    buffer.seek(0)
    return buffer


def ssimulacra2(reference, test):
    if np.array_equal(reference, test):
        return 100.0
    score = float(compute_ssimulacra2(ppm(reference), ppm(test)))
    if not math.isfinite(score):
        raise Unmeasured("SSIMULACRA2 gave a non-finite score")
    return score


def flip(reference, test):
    """Mean FLIP error (0 = identical) and the error map."""
    error_map, mean, _ = flip_evaluator.evaluate(reference.astype(np.float32) / 255, test.astype(np.float32) / 255,
                                                 "LDR", applyMagma=False)
    if not math.isfinite(mean):
        raise Unmeasured("FLIP gave a non-finite mean")
    return float(mean), np.asarray(error_map).reshape(reference.shape[:2])


def worst_tile(error_map):
    """(x, y, mean FLIP) of the TILE x TILE tile with the highest mean error."""
    h, w = error_map.shape
    best = (0, 0, -1.0)
    for y in range(0, h, TILE):
        for x in range(0, w, TILE):
            m = float(error_map[y:y + TILE, x:x + TILE].mean())
            if m > best[2]:
                best = (x, y, m)
    return best


def item_at(info, frame, x, work_images, item_width):
    """What the viewport shows at column x of a frame: an image (by name) or the gap."""
    column = frame["x0"] + x
    offset = column % info["pitch"]
    if offset >= item_width:
        return "gap"
    page = (column // info["pitch"]) % info["pages"]
    return image_name(work_images, page)


def image_name(names, page):
    """The image of a page (0-based): its file name, or the built-in sample's."""
    return names[page] if names else f"banner-{page + 1}.png (sample)"


def compare(work, info, exact, rows, quantized, picked, keep):
    """One pass over the timeline: shimmer of every GIF, metrics on the sampled frames; carousel's
    frames `keep` (timeline indices) saved as PNGs in moves/ for every_move()."""
    frames, w, h = info["frames"], info["width"], info["height"]
    delays = [f["delay"] for f in frames]
    gifs = list(rows)
    streams, shown = {}, {}
    for name in gifs:
        streams[name] = GifStream(work.dir / f"{name}.gif", w, h, len(rows[name]["delays"]))
        shown[name] = encoder_bench.shown_frames(rows[name]["delays"], delays)
        rows[name].update(shimmer=0, s2={}, flip={}, tiles={})
    rows["pngquant"] = {"s2": {}, "flip": {}, "tiles": {}}
    gifsicle_same = True
    wanted = set(picked)
    started = time.perf_counter()
    for k in range(len(frames)):
        reference = np.asarray(exact[k])
        current = {name: streams[name].get(shown[name][k]) for name in gifs}
        if k > 0:
            still = np.all(reference == exact[k - 1], axis=-1)
            for name in gifs:
                if shown[name][k] != shown[name][k - 1]:
                    moved = np.any(current[name] != previous[name], axis=-1)
                    rows[name]["shimmer"] += int(np.count_nonzero(still & moved))
        if k in keep:
            Image.fromarray(current["carousel"]).save(work.dir / "moves" / f"frame-{k:05d}.png")
        same_now = np.array_equal(current["gifsicle"], current["ffmpeg"])
        gifsicle_same = gifsicle_same and same_now
        if k in wanted:
            done = len([p for p in picked if p < k])
            log(f"{work.name}: frame {k} ({done + 1}/{len(picked)} sampled, {time.perf_counter() - started:.0f} s)")
            tests = {"carousel": current["carousel"], "ffmpeg": current["ffmpeg"], "pngquant": quantized[k]}
            for name, test in tests.items():
                rows[name]["s2"][k] = ssimulacra2(reference, test)
                rows[name]["flip"][k], error_map = flip(reference, test)
                rows[name]["tiles"][k] = worst_tile(error_map)
            if same_now:
                for metric in ("s2", "flip", "tiles"):
                    rows["gifsicle"][metric][k] = rows["ffmpeg"][metric][k]
            else:
                rows["gifsicle"]["s2"][k] = ssimulacra2(reference, current["gifsicle"])
                rows["gifsicle"]["flip"][k], error_map = flip(reference, current["gifsicle"])
                rows["gifsicle"]["tiles"][k] = worst_tile(error_map)
        previous = current
    for stream in streams.values():
        stream.close()
    return gifsicle_same


def score_files(pair):
    """SSIMULACRA2 of two image files (reference, test), for a worker process."""
    reference, test = pair
    score = float(compute_ssimulacra2(str(reference), str(test)))
    if not math.isfinite(score):
        raise Unmeasured(f"SSIMULACRA2 gave a non-finite score on {test}")
    return score


def unsampled_moves(phase, picked):
    """The moving frames (timeline indices, in order) that the sample leaves out."""
    sampled = set(picked)
    return [k for k, p in enumerate(phase) if p == "move" and k not in sampled]


def every_move(work, phase, rows, picked, extra):
    """SSIMULACRA2 of carousel's GIF and of pngquant on every frame of every move, kept as
    rows[...]["moves"]: the sampled frames' scores from compare(), the others (`extra`) scored
    here, in one worker process a core, from the frames compare() kept and pngquant's of the
    exact frame."""
    log(f"{work.name}: pngquant 256 and SSIMULACRA2 on the {len(extra)} moving frames not sampled")
    reference = pngquant_scores(work.dir, extra)
    pairs = [(exact_png(work.dir, k), work.dir / "moves" / f"frame-{k:05d}.png") for k in extra]
    with ProcessPoolExecutor(os.cpu_count()) as pool:
        scores = list(pool.map(score_files, pairs))
    for name in ("carousel", "pngquant"):
        rows[name]["moves"] = {k: rows[name]["s2"][k] for k in picked if phase[k] == "move"}
    rows["carousel"]["moves"].update(zip(extra, scores))
    rows["pngquant"]["moves"].update(zip(extra, reference))


def export(exe, work):
    """carousel frames, timed (best of FRAMES_REPEATS, into a folder of its own), and whether each
    run wrote the same bytes as the exact frames' run: every file, frames.json too."""
    log(f"{work.name}: carousel frames x{FRAMES_REPEATS}")
    exact, timed = work.dir / "exact", work.dir / "frames-timed"
    names = sorted(p.name for p in exact.iterdir())
    times, differing = [], set()
    try:
        for _ in range(FRAMES_REPEATS):
            if timed.exists():
                shutil.rmtree(timed)
            settle()
            times.append(best_of(work.carousel(exe, "frames", "-o", timed), 1))
            if not timed.is_dir():
                raise Unmeasured(f"carousel frames exited 0 but wrote no folder {timed}")
            written = sorted(p.name for p in timed.iterdir())
            differing |= {f"{n} missing" for n in set(names) - set(written)}
            differing |= {f"{n} extra" for n in set(written) - set(names)}
            differing |= {n for n in set(names) & set(written) if not filecmp.cmp(exact / n, timed / n, shallow=False)}
    finally:
        shutil.rmtree(timed, ignore_errors=True)
    return {"seconds": min(times), "files": len(names), "differing": sorted(differing)}


def measure(exe, work):
    if work.dir.exists():
        shutil.rmtree(work.dir)
    work.dir.mkdir(parents=True)
    info, exact = exact_frames(exe, work)
    phase = phases(info["frames"])
    picked, k = sample(phase)
    rows = encode(exe, work, info)
    quantized = pngquant(work, picked)
    extra = unsampled_moves(phase, picked)
    (work.dir / "moves").mkdir()
    gifsicle_same = compare(work, info, exact, rows, quantized, picked, set(extra))
    every_move(work, phase, rows, picked, extra)
    distinct = 1 + sum(bool(np.any(exact[i] != exact[i - 1])) for i in range(1, len(exact)))
    del exact
    (work.dir / "exact.rgb").unlink()
    return {"work": work, "info": info, "phase": phase, "picked": picked, "k": k, "rows": rows,
            "gifsicle_same": gifsicle_same, "distinct": distinct}


# ---------------------------------------------------------------- report

def mean(values):
    return sum(values) / len(values)


def report_workload(result):
    work, info, rows, picked, phase = result["work"], result["info"], result["rows"], result["picked"], result["phase"]
    frames = info["frames"]
    c, q, f = rows["carousel"], rows["pngquant"], rows["ffmpeg"]
    n_hold = sum(phase[i] == "hold" for i in picked)
    print(f"## {work.name}\n")
    print(f"{work.what[0].upper()}{work.what[1:]}. {len(frames)} timeline frames ({result['distinct']} distinct consecutive), "
          f"{info['width']}x{info['height']}, {info['fps']} fps, {info['duration']:g} s.\n")
    print(f"Sampled for SSIMULACRA2 and FLIP: {len(picked)} frames = timeline frames 0, k, 2k, ... (k = {result['k']}) "
          f"+ the first frame of each hold + the frames at 1/4, 1/2 and 3/4 of each move ({n_hold} hold, "
          f"{len(picked) - n_hold} move frames): {', '.join(map(str, picked))}.\n")
    print("| pipeline | bytes | GIF frames | GIF length s | wall s | SSIMULACRA2 mean | SSIMULACRA2 worst (frame) "
          "| FLIP mean | shimmer px |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    labels = [("carousel", "carousel render"), ("ffmpeg", "ffmpeg palettegen/paletteuse"),
              ("gifsicle", "gifsicle -O3 (ffmpeg's GIF)"), ("pngquant", "pngquant 256, each frame (reference)")]
    for name, label in labels:
        r = rows[name]
        worst = min(r["s2"], key=r["s2"].get)
        if name == "pngquant":
            gif = "| n/a (PNGs) | n/a | n/a | n/a "
        else:
            gif = f"| {r['bytes']} | {len(r['delays'])} | {r['length']:.2f} | {r['seconds']:.3f} "
        print(f"| {label} {gif}| {mean(list(r['s2'].values())):.2f} | {r['s2'][worst]:.2f} ({worst}) "
              f"| {mean(list(r['flip'].values())):.4f} | {r.get('shimmer', 'n/a')} |")
    print()
    c_mean, q_mean = mean(list(c["s2"].values())), mean(list(q["s2"].values()))
    deficits = {k: c["s2"][k] - q["s2"][k] for k in picked}
    # The per-frame goal on every picture the timeline shows: each frame of each move, and the
    # sampled frames of each hold (a hold's frames are one picture, its first always sampled).
    gaps = {k: c["moves"][k] - q["moves"][k] for k in c["moves"]}
    gaps.update({k: deficits[k] for k in picked if phase[k] == "hold"})
    below = [k for k in gaps if gaps[k] < -PER_FRAME_MARGIN]
    worst_gap = min(gaps, key=gaps.get)
    size, speed = c["bytes"] / f["bytes"], f["seconds"] / c["seconds"]
    export_row = c["frames"]
    export_ratio = export_row["seconds"] / c["seconds"]
    goals = [
        ("SSIMULACRA2 mean: carousel >= pngquant", f"{c_mean:.2f} vs {q_mean:.2f} ({c_mean - q_mean:+.2f})",
         c_mean >= q_mean),
        (f"every frame (each move's, each hold's sampled): carousel >= pngquant - {PER_FRAME_MARGIN:g}",
         f"{len(below)} of {len(gaps)} below; largest deficit {gaps[worst_gap]:+.2f} at frame {worst_gap}",
         not below),
        ("bytes: carousel <= 0.7 x ffmpeg", f"{c['bytes']} / {f['bytes']} = {size:.3f}", size <= 0.7),
        ("wall time: ffmpeg / carousel >= 10x", f"{f['seconds']:.3f} s / {c['seconds']:.3f} s = {speed:.2f}x",
         speed >= 10),
        ("shimmer: carousel = 0 px", str(c["shimmer"]), c["shimmer"] == 0),
        (f"carousel frames <= {FRAMES_LIMIT:g}x render's wall time, the same bytes every run",
         f"{export_row['seconds']:.3f} s / {c['seconds']:.3f} s = {export_ratio:.2f}x; "
         + (f"{export_row['files']} files the same in {FRAMES_REPEATS + 1} runs" if not export_row["differing"]
            else f"{len(export_row['differing'])} differing: {', '.join(export_row['differing'][:3])}"),
         export_ratio <= FRAMES_LIMIT and not export_row["differing"]),
    ]
    print("| goal | measured | result |")
    print("|---|---|---|")
    for goal, value, ok in goals:
        print(f"| {goal} | {value} | {'PASS' if ok else 'FAIL'} |")
    print()
    if c["moves"]:
        ordered = sorted(c["moves"], key=lambda k: c["moves"][k] - q["moves"][k])
        print(f"Every moving frame ({len(ordered)}), SSIMULACRA2 mean: carousel {mean(list(c['moves'].values())):.2f}, "
              f"pngquant {mean(list(q['moves'].values())):.2f}. The largest gaps (frame: carousel / pngquant): "
              + ", ".join(f"{k}: {c['moves'][k]:.2f} / {q['moves'][k]:.2f} ({c['moves'][k] - q['moves'][k]:+.2f})"
                          for k in ordered[:WORST_ROWS]) + ".\n")
    print(f"Peak RSS of carousel render: {c['rss']:.1f} MiB (max of {CAROUSEL_REPEATS} runs, /usr/bin/time -v).\n")
    holds = [k for k in picked if phase[k] == "hold"]
    moves = [k for k in picked if phase[k] == "move"]
    hold_share = phase.count("hold") / len(phase)
    print(f"SSIMULACRA2 mean by phase of the sampled frames, and weighted by the timeline's share of hold "
          f"({hold_share:.1%}) and move frames; FLIP mean by phase:\n")
    print("| pipeline | hold frames | move frames | timeline-weighted | FLIP, hold frames | FLIP, move frames |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in ("carousel", "ffmpeg", "pngquant"):
        s, e = rows[name]["s2"], rows[name]["flip"]
        hold_mean = mean([s[k] for k in holds])
        move_mean = mean([s[k] for k in moves]) if moves else hold_mean
        flip_hold = mean([e[k] for k in holds])
        flip_move = f"{mean([e[k] for k in moves]):.4f}" if moves else "n/a"
        print(f"| {name} | {hold_mean:.2f} ({len(holds)}) | {move_mean:.2f} ({len(moves)}) "
              f"| {hold_share * hold_mean + (1 - hold_share) * move_mean:.2f} | {flip_hold:.4f} | {flip_move} |")
    print()
    names = [Path(p).name for p in work.inputs]
    item_width = option(work.options, "--item-width", info["width"])
    first_holds = [k for k in holds if k == 0 or phase[k - 1] != "hold"]
    print("Each page at rest (first frame of its hold), SSIMULACRA2:\n")
    print("| frame | page | image | carousel | pngquant | ffmpeg | carousel FLIP |")
    print("|---:|---:|---|---:|---:|---:|---:|")
    for k in first_holds:
        page = frames[k]["page"]
        image = image_name(names, page)
        print(f"| {k} | {page + 1} | {image} | {c['s2'][k]:.2f} | {q['s2'][k]:.2f} | {f['s2'][k]:.2f} "
              f"| {c['flip'][k]:.4f} |")
    print()
    print(f"Worst sampled frames for carousel (lowest carousel - pngquant first; of each hold only its first frame); "
          f"the area is the {TILE}x{TILE} "
          f"tile of carousel's frame with the highest mean FLIP error (top-left x,y) and what it shows:\n")
    print("| frame | time s | phase | carousel | pngquant | ffmpeg | carousel - pngquant | carousel FLIP "
          "| worst area |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|---|")
    distinct_samples = [k for k in picked if phase[k] == "move" or k in first_holds]   # a hold's frames are alike
    for k in sorted(distinct_samples, key=lambda k: deficits[k])[:WORST_ROWS]:
        x, y, tile = c["tiles"][k]
        what = item_at(info, frames[k], x + TILE // 2, names, item_width)
        print(f"| {k} | {frames[k]['time']:.2f} | {phase[k]} | {c['s2'][k]:.2f} | {q['s2'][k]:.2f} "
              f"| {f['s2'][k]:.2f} | {deficits[k]:+.2f} | {c['flip'][k]:.4f} | ({x},{y}) FLIP {tile:.3f}, {what} |")
    print()
    lowest = sorted(distinct_samples, key=lambda k: c["s2"][k])[:5]
    print("Lowest carousel SSIMULACRA2: " + ", ".join(f"frame {k} ({phase[k]}) {c['s2'][k]:.2f}" for k in lowest)
          + ".\n")
    print("Commands (in bench/.cache/quality/" + work.name + "/):\n")
    print("```")
    for name in ("carousel", "ffmpeg", "gifsicle"):
        print(work.commands[name])
    print("pngquant 256 --force --output pngquant/frame-NNNNN.png -- exact/frame-NNNNN.png   # each sampled and each moving frame")
    print("```\n")
    print(f"gifsicle's decoded frames equal ffmpeg's on every timeline frame: "
          f"{'yes (its scores are ffmpeg' + chr(39) + 's)' if result['gifsicle_same'] else 'no (scored on its own)'}.\n")
    return goals


def option(options, flag, default):
    return int(options[options.index(flag) + 1]) if flag in options else default


def report(results, exe, command, started):
    print("# GIF quality benchmark\n")
    print(f"`{command}` with carousel `{exe}`; {time.strftime('%Y-%m-%d %H:%M %Z')}, "
          f"{os.cpu_count()} CPUs, {time.perf_counter() - started:.0f} s.\n")
    print(f"SSIMULACRA2 from the `ssimulacra2` Python package ({pkg_version('ssimulacra2')}; 100 = identical, "
          f"higher is better), FLIP from `flip-evaluator` ({pkg_version('flip-evaluator')}; LDR, 67 pixels per degree, "
          f"mean error, 0 = identical, lower is better), each frame against carousel's exact frame. "
          f"Wall time: best of {CAROUSEL_REPEATS} for carousel render (from the PNG inputs), best of {FFMPEG_REPEATS} "
          f"for ffmpeg (the GIF encode only, from the exact frames as raw RGB at the same fps), the two alternating, "
          f"and gifsicle; best of {FRAMES_REPEATS} for carousel frames (the same images and options, PNGs into "
          f"an empty folder), whose files are compared with the exact frames' run byte for byte. "
          f"{tool_versions()}.\n")
    summary = []
    for result in results:
        goals = report_workload(result)
        summary.append((result["work"].name, goals))
    print("## Summary\n")
    print("| workload | " + " | ".join(g for g, _, _ in summary[0][1]) + " |")
    print("|---|" + "---|" * len(summary[0][1]))
    for name, goals in summary:
        print(f"| {name} | " + " | ".join(f"{'PASS' if ok else 'FAIL'}: {value}" for _, value, ok in goals) + " |")


def pkg_version(name):
    from importlib.metadata import version
    return version(name)


def tool_versions():
    def first_line(cmd):
        r = subprocess.run(cmd, capture_output=True, text=True)
        return (r.stdout or r.stderr).splitlines()[0].strip() if (r.stdout or r.stderr) else "?"
    return "; ".join([first_line(["ffmpeg", "-version"]).split(" Copyright")[0],
                      "pngquant " + first_line(["pngquant", "--version"]).split()[0],
                      first_line(["gifsicle", "--version"])])


def main():
    started = time.perf_counter()
    command = shlex.join(([f"CAROUSEL_BIN={os.environ['CAROUSEL_BIN']}"] if os.environ.get("CAROUSEL_BIN") else [])
                         + ["python3", "bench/quality-bench.py", *sys.argv[1:]])
    exe = encoder_bench.carousel_bin()
    RUN.mkdir(parents=True, exist_ok=True)
    chosen = sys.argv[1:]
    unknown = set(chosen) - set(WORKLOAD_NAMES)
    if unknown:
        raise Unmeasured(f"no workload named {', '.join(sorted(unknown))} ({', '.join(WORKLOAD_NAMES)})")
    results = [measure(exe, work) for work in workloads(chosen)]
    report(results, exe, command, started)


if __name__ == "__main__":
    try:
        main()
    except (Unmeasured, OSError, ValueError) as error:
        print(f"quality-bench: could not measure: {error}", file=sys.stderr)
        sys.exit(2)
