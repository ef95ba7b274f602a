#!/usr/bin/env python3
"""Checks that headless Chromium plays carousel's animated WebP and APNG (and the GIF):
a screenshot of a page showing each file matches the file's frame 0.

    CAROUSEL_BIN=.build/release/carousel python3 bench/chromium-check.py

Renders the sample banners (hold 2 s, so frame 0 is on screen while the page loads),
opens each in `chromium --headless --screenshot`, and compares the screenshot with
`carousel frame --at 0`: mean absolute difference per channel, and PSNR. Needs
Debian's chromium, and Pillow. Exit status 1 when a format does not match.
"""
import math, os, subprocess, sys, tempfile
from pathlib import Path

from PIL import Image, ImageChops, ImageStat


def main():
    exe = os.environ.get("CAROUSEL_BIN", ".build/release/carousel")
    browser = next((b for b in ("chromium", "chromium-browser", "google-chrome") if subprocess.run(
        ["which", b], capture_output=True).returncode == 0), None)
    if browser is None:
        sys.exit("chromium not found (apt-get install chromium)")
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        size = "320x180"
        subprocess.run([exe, "frame", "--size", size, "--at", "0", "-o", str(folder / "frame0.png"), "--quiet"], check=True)
        reference = Image.open(folder / "frame0.png").convert("RGB")
        print("| format | file bytes | mean abs. difference | PSNR dB | plays |")
        print("|---|---:|---:|---:|---|")
        for ext in ("gif", "webp", "apng"):
            animation = folder / f"banner.{ext}"
            subprocess.run([exe, "render", "--size", size, "-o", str(animation), "--quiet"], check=True)
            page = folder / f"{ext}.html"
            page.write_text(f'<html><body style="margin:0;background:#000">'
                            f'<img src="{animation.name}" style="display:block"></body></html>')
            shot = folder / f"{ext}.png"
            subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                            "--force-color-profile=srgb", f"--screenshot={shot}", "--window-size=320,180",
                            "--allow-file-access-from-files", page.as_uri()],
                           check=True, capture_output=True, timeout=120)
            seen = Image.open(shot).convert("RGB").crop((0, 0, 320, 180))
            diff = ImageChops.difference(seen, reference)
            mean = sum(ImageStat.Stat(diff).mean) / 3
            mse = sum(x * x for x in ImageStat.Stat(diff).rms) / 3
            psnr = 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)
            ok = psnr >= 30
            failed |= not ok
            print(f"| {ext} | {animation.stat().st_size:,} | {mean:.2f} | {psnr:.1f} | {'yes' if ok else 'NO'} |")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
