#!/usr/bin/env python3
"""A gradient-heavy image set for the GIF quality benchmark (bench/quality-bench.py).

    python3 bench/make-gradients.py [OUT_DIR] [--no-photos]

Writes 1125x665 RGB PNGs to OUT_DIR (default bench/.cache/gradients), in order:

  gradient-1-linear.png   diagonal linear gradient, indigo -> magenta -> orange
  gradient-2-radial.png   off-centre radial glow, cream -> orange -> deep violet
  gradient-3-wheel.png    HSV colour wheel (hue by angle, saturation by radius)
                          on a vertical grey gradient
  gradient-4-sky.png      sky: deep blue -> light blue -> warm horizon with a sun
                          glow, over a dark ground gradient
  gradient-5-retina.png   scikit-image's retina.jpg (CC0), scaled to cover, centre crop
  gradient-6-rocket.png   scikit-image's rocket.jpg (public domain, SpaceX), the same

The synthetic images are smooth (no noise): every 8-bit step of a gradient is a
band a palette can lose. They are computed in float64 with numpy and rounded
half up, so a run gives the same pixels every time. The two photographs come
from the scikit-image wheel that bench/encoder-bench.py keeps in
bench/.cache/wheel (downloaded with `pip download --no-deps scikit-image` when
missing); when it cannot be had, or with --no-photos, only the four synthetic
images are written. Each image is listed on stderr with the SHA-256 of its
pixels. Needs numpy and Pillow.
"""
import hashlib, io, subprocess, sys, zipfile
from pathlib import Path

import numpy as np
from PIL import Image

BENCH = Path(__file__).resolve().parent
CACHE = BENCH / ".cache"
W, H = 1125, 665
PHOTOS = [("gradient-5-retina.png", "retina.jpg"), ("gradient-6-rocket.png", "rocket.jpg")]


def log(message):
    print(f"[gradients] {message}", file=sys.stderr, flush=True)


def rgb(hex_colour):
    return np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)], np.float64) / 255


def ramp(t, stops):
    """Piecewise-linear colour ramp: t (any shape, clamped to 0...1) -> (..., 3) in 0...1."""
    t = np.clip(t, 0, 1)
    positions = [p for p, _ in stops]
    return np.stack([np.interp(t, positions, [rgb(c)[i] for _, c in stops]) for i in range(3)], axis=-1)


def smoothstep(e0, e1, x):
    u = np.clip((x - e0) / (e1 - e0), 0, 1)
    return u * u * (3 - 2 * u)


def grid():
    y, x = np.mgrid[0:H, 0:W].astype(np.float64)
    return x + 0.5, y + 0.5


def linear():
    x, y = grid()
    angle = np.radians(20)
    d = x * np.cos(angle) + y * np.sin(angle)
    t = (d - d.min()) / (d.max() - d.min())
    return ramp(t, [(0, "#1B2A6B"), (0.55, "#C2389A"), (1, "#FFB347")])


def radial():
    x, y = grid()
    cx, cy = 0.35 * W, 0.4 * H
    r = np.hypot(x - cx, y - cy) / np.hypot(W - cx, H - cy)
    return ramp(r, [(0, "#FFF4D6"), (0.3, "#F08A4B"), (0.7, "#6A2056"), (1, "#2B1040")])


def wheel():
    x, y = grid()
    cx, cy, radius = W / 2, H / 2, 0.45 * H
    r = np.hypot(x - cx, y - cy)
    hue = (np.arctan2(y - cy, x - cx) / (2 * np.pi)) % 1
    sat = np.clip(r / radius, 0, 1)
    k = (np.stack([5 + hue * 6, 3 + hue * 6, 1 + hue * 6], axis=-1)) % 6   # HSV -> RGB with V = 1
    colour = 1 - sat[..., None] * np.clip(np.minimum(k, 4 - k), 0, 1)
    ground = ramp(y / H, [(0, "#202020"), (1, "#606060")])
    inside = smoothstep(radius + 0.75, radius - 0.75, r)[..., None]           # 1.5 px anti-aliased edge
    return inside * colour + (1 - inside) * ground


def sky():
    x, y = grid()
    horizon = 0.72 * H
    air = ramp(y / horizon, [(0, "#0B2A6F"), (0.55, "#3F7FD0"), (0.85, "#A9C9E8"), (1, "#F5C38A")])
    glow = np.exp(-((x - 0.7 * W) ** 2 + (y - horizon) ** 2) / (2 * 90.0 ** 2))[..., None]
    air = air + (rgb("#FFF1C9") - air) * glow * 0.9
    ground = ramp((y - horizon) / (H - horizon), [(0, "#2A2118"), (1, "#0E0B08")])
    above = smoothstep(horizon + 1.5, horizon - 1.5, y)[..., None]
    return above * air + (1 - above) * ground


def to_uint8(image):
    return np.floor(np.clip(image, 0, 1) * 255 + 0.5).astype(np.uint8)


def wheel_file():
    """The scikit-image wheel in the cache, downloaded when missing; None when it cannot be had."""
    wheels = sorted((CACHE / "wheel").glob("scikit_image-*.whl"))
    if not wheels:
        log("downloading the scikit-image wheel for its sample photographs")
        r = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                            "scikit-image", "-d", str(CACHE / "wheel")], capture_output=True)
        wheels = sorted((CACHE / "wheel").glob("scikit_image-*.whl"))
        if r.returncode != 0 or not wheels:
            log("no scikit-image wheel: writing the synthetic images only")
            return None
    return wheels[-1]


def cover(image):
    """Scales an image to cover W x H (Lanczos) and crops the centre."""
    scale = max(W / image.width, H / image.height)
    size = (max(W, round(image.width * scale)), max(H, round(image.height * scale)))
    image = image.convert("RGB").resize(size, Image.LANCZOS)
    left, top = (size[0] - W) // 2, (size[1] - H) // 2
    return np.asarray(image.crop((left, top, left + W, top + H)))


def make(folder, photos=True):
    """Writes the set into folder; returns [(path, description)] in order."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("gradient-*.png"):
        old.unlink()
    images = [("gradient-1-linear.png", "synthetic linear gradient", linear),
              ("gradient-2-radial.png", "synthetic radial gradient", radial),
              ("gradient-3-wheel.png", "synthetic HSV colour wheel", wheel),
              ("gradient-4-sky.png", "synthetic sky gradient", sky)]
    out = []
    for name, what, draw in images:
        out.append((write(folder / name, to_uint8(draw())), what))
    wheel_path = wheel_file() if photos else None
    if wheel_path:
        with zipfile.ZipFile(wheel_path) as z:
            for name, source in PHOTOS:
                pixels = cover(Image.open(io.BytesIO(z.read("skimage/data/" + source))))
                version = wheel_path.name.split("-")[1]
                out.append((write(folder / name, pixels), f"{source} from scikit-image {version}"))
    return out


def write(path, pixels):
    Image.fromarray(pixels, "RGB").save(path, compress_level=6)
    log(f"{path.name}: {pixels.shape[1]}x{pixels.shape[0]}, pixels sha256 {hashlib.sha256(pixels.tobytes()).hexdigest()[:16]}")
    return path


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--no-photos"]
    for path, what in make(args[0] if args else CACHE / "gradients", photos="--no-photos" not in sys.argv[1:]):
        print(path)
