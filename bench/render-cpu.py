#!/usr/bin/env python3
"""CPU time of carousel's benchmark renders, for comparing two builds on a noisy machine.

    python3 bench/render-cpu.py [--frames] BIN[,BIN...] [WORKLOADS] [ROUNDS]
    e.g.  python3 bench/render-cpu.py /tmp/old/carousel,.build/release/carousel photos,gradients 4

Runs `carousel render` with quality-bench.py's images and options for each workload
(samples, photos, gradients, others; the first three by default), the builds alternating,
ROUNDS times (3 by default), and prints each run's wall time and CPU time (user + system of the child,
from getrusage). Alternating runs and comparing ranges is what tells a change from this
machine's run-to-run noise; one run of each build does not. The GIFs go to a temporary
folder. With --frames, `carousel frames` is timed instead, each run into a new folder
(removed after it), and the line gives the bytes of PNG it wrote.
"""
import resource, shutil, subprocess, sys, tempfile, time
from pathlib import Path

import benchmodules
from benchmodules import is_binary, load, run_main, whole


def usage(problem):
    benchmodules.usage("render-cpu", problem)


def main():
    args = sys.argv[1:]
    frames = bool(args) and args[0] == "--frames"
    args = args[1:] if frames else args
    if not args:
        sys.exit(__doc__)
    builds = args[0].split(",")
    names = args[1].split(",") if len(args) > 1 else ["samples", "photos", "gradients"]
    rounds = args[2] if len(args) > 2 else "3"
    for build in builds:
        if not is_binary(build):
            usage(f"{build}: no carousel binary there")
    quality = load("quality-bench.py")
    known = quality.WORKLOAD_NAMES
    for name in names:
        if name not in known:
            usage(f"no workload named {name!r} ({', '.join(known)})")
    if whole(rounds) is None:
        usage(f"ROUNDS must be a whole number from 1, got {rounds!r}")
    rounds = whole(rounds)
    works = {w.name: w for w in quality.workloads(names)}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(rounds):
            for b, build in enumerate(builds):
                for name in names:
                    out = Path(tmp) / (f"{name}-{b}" if frames else f"{name}-{b}.gif")
                    command = works[name].carousel(build, "frames" if frames else "render", "-o", out)
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    start = time.time()
                    if subprocess.run(command).returncode != 0:
                        sys.exit(f"render-cpu: {build} failed on {name} (its error is above)")
                    wall = time.time() - start
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                    written = ""
                    if frames:
                        written = f"  {sum(p.stat().st_size for p in out.glob('*.png')):,} bytes of PNG"
                        shutil.rmtree(out)
                    print(f"{build}  {name:10} wall {wall:.3f} s  cpu {cpu:.3f} s{written}", flush=True)


if __name__ == "__main__":
    run_main("render-cpu", main)
