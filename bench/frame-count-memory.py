#!/usr/bin/env python3
"""Peak memory (max RSS, from GNU time's %M) of the carousel binary against the
number of frames, to show whether memory grows with the frame count.

For each CYCLES value the workload is `--size 16x9 --fps 50 --hold 0 --script
'autoplay CYCLES'` (every frame moves; 40/400/2400 cycles give 3,000/30,000/
180,000 frames), measured through `render -o m.gif`, `render -o m.apng`,
`frames -o dir` and `frame --at T` (T: the last whole second before the end),
plus `render -o m.webp` with --webp. Each command runs in a fresh temporary
folder; with --runs R it runs R times and the lowest peak and time are kept.
The last lines give each command's growth between the smallest and the largest
CYCLES, in KB (1000 bytes) of peak memory per frame.

    swift build -c release --product carousel && python3 bench/frame-count-memory.py
    python3 bench/frame-count-memory.py --cycles 40 400 --runs 3 --webp

The binary is CAROUSEL_BIN, else .build/release/carousel in the repository.
Needs /usr/bin/time (GNU time).
"""
import argparse, math, os, re, shlex, subprocess, sys, tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(exe, args, runs):
    """Runs `exe args` in fresh temporary folders; returns (lowest peak KiB, lowest seconds, stderr)."""
    peaks, times = [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as folder:
            timing = Path(folder) / "time.txt"
            command = ["/usr/bin/time", "-f", "%M %e", "-o", str(timing), exe] + args
            result = subprocess.run(command, cwd=folder, capture_output=True, text=True)
            if result.returncode != 0:
                print("failed: " + shlex.join(command[5:]), file=sys.stderr)
                print(result.stderr.strip(), file=sys.stderr)
                sys.exit(1)
            peak, seconds = timing.read_text().split()[-2:]
        peaks.append(int(peak))
        times.append(float(seconds))
    return min(peaks), min(times), result.stderr


def main():
    parser = argparse.ArgumentParser(description="Peak memory of carousel against the frame count.")
    parser.add_argument("--cycles", type=int, nargs="+", default=[40, 400, 2400], help="autoplay cycles")
    parser.add_argument("--runs", type=int, default=1, help="runs per measurement; the lowest peak is kept")
    parser.add_argument("--webp", action="store_true", help="also measure render -o m.webp (slow)")
    options = parser.parse_args()
    exe = os.path.abspath(os.environ.get("CAROUSEL_BIN") or ROOT / ".build/release/carousel")
    if not os.access(exe, os.X_OK):
        sys.exit(f"carousel binary not found: {exe} (build it, or set CAROUSEL_BIN)")

    outputs = ["m.gif", "m.apng"] + (["m.webp"] if options.webp else [])
    rows = []  # (command, cycles, frames, peak KiB, seconds)
    for cycles in sorted(set(options.cycles)):
        common = ["--size", "16x9", "--fps", "50", "--hold", "0", "--script", f"autoplay {cycles}"]
        duration = frames = None
        commands = [(f"render -o {out}", ["render"] + common + ["-o", out]) for out in outputs]
        commands.append(("frames -o dir", ["frames"] + common + ["-o", "dir"]))
        commands.append(("frame --at T", None))
        for name, args in commands:
            if args is None:
                args = ["frame"] + common + ["--at", str(math.ceil(duration) - 1), "-o", "f.png"]
            peak, seconds, stderr = measure(exe, args, options.runs)
            # Summary lines: "m.gif: 3000 frames, 60.00 s, ..." and "f.png: frame 2950 of 3000, ...".
            match = re.search(r": (\d+) frames, ([\d.]+) s", stderr) or re.search(r"frame \d+ of (\d+)", stderr)
            if not match:
                sys.exit(f"no summary line from {name}: {stderr.strip()}")
            count = int(match.group(1))
            if frames is None:
                frames, duration = count, float(match.group(2))
            elif count != frames:
                sys.exit(f"{name} reports {count} frames, render reported {frames} (autoplay {cycles})")
            rows.append((name, cycles, count, peak, seconds))
            print(f"  {name:<16} autoplay {cycles}: {peak / 1024:.1f} MiB, {seconds:.2f} s", file=sys.stderr)

    print(f"{'command':<16} {'frames':>9} {'peak MiB':>9} {'seconds':>8}")
    for name, _, frames, peak, seconds in rows:
        print(f"{name:<16} {frames:>9,} {peak / 1024:>9.1f} {seconds:>8.2f}")
    if len(set(options.cycles)) > 1:
        lo, hi = min(options.cycles), max(options.cycles)
        print(f"\ngrowth of peak memory per frame, autoplay {lo} to {hi}:")
        for name in dict.fromkeys(row[0] for row in rows):
            small = next(r for r in rows if r[0] == name and r[1] == lo)
            large = next(r for r in rows if r[0] == name and r[1] == hi)
            per_frame = (large[3] - small[3]) * 1024 / (large[2] - small[2]) / 1000
            print(f"{name:<16} {per_frame:+.3f} KB/frame")


if __name__ == "__main__":
    main()
