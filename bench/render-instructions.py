#!/usr/bin/env python3
"""Instructions executed by carousel's benchmark renders, for telling two builds apart exactly.

    python3 bench/render-instructions.py BIN[,BIN...] [WORKLOADS]
    e.g.  python3 bench/render-instructions.py /tmp/old/carousel,.build/release/carousel photos,gradients

Runs `carousel render` with quality-bench.py's images and options for each workload
(samples, photos, gradients, others; the first three by default) under `valgrind --tool=callgrind`
and prints each build's total instruction count, and whether the builds' GIFs are the
same bytes. Instruction counts do not move with the machine's load, where wall and CPU
times (render-cpu.py) vary by 10% from run to run; they do not see memory stalls, page
faults or how well the cores are shared, so a change that moves memory about is
judged by render-cpu.py as well. Under callgrind a render runs about 50 times slower
(the gradients, some 4 minutes a build); the builds run side by side, one per core.
Needs valgrind (`apt-get install valgrind`).
"""
import os, re, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchmodules import load, run_main


def instructions(command, out):
    """The total instruction count callgrind reports for `command`."""
    result = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *map(str, command)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"render-instructions: {command[0]} failed under valgrind:\n{result.stderr[-2000:]}")
    found = re.findall(r"refs:\s+([\d,]+)", result.stderr)
    if not found:
        sys.exit("render-instructions: no instruction count in valgrind's output")
    return int(found[-1].replace(",", ""))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    quality = load("quality-bench.py")
    builds = sys.argv[1].split(",")
    names = sys.argv[2].split(",") if len(sys.argv) > 2 else ["samples", "photos", "gradients"]
    unknown = [name for name in names if name not in quality.WORKLOAD_NAMES]
    if unknown:
        sys.exit(f"render-instructions: no workload named {unknown[0]!r} ({', '.join(quality.WORKLOAD_NAMES)})")
    works = {w.name: w for w in quality.workloads(names)}
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for name in names:
            jobs = []
            for b, build in enumerate(builds):
                gif = Path(tmp) / f"{name}-{b}.gif"
                command = works[name].carousel(build, "render", "-o", gif)
                jobs.append((build, gif, pool.submit(instructions, command, Path(tmp) / f"{name}-{b}.callgrind")))
            counts = [(build, gif, job.result()) for build, gif, job in jobs]
            same = len({gif.read_bytes() for _, gif, _ in counts}) == 1
            for build, _, count in counts:
                print(f"{build}  {name:10} {count / 1e9:7.3f} G instructions", flush=True)
            if len(builds) > 1:
                print(f"{name}: the GIFs are {'the same bytes' if same else 'different'}", flush=True)


if __name__ == "__main__":
    run_main("render-instructions", main)
