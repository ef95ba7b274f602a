#!/usr/bin/env python3
"""CPU time of carousel's benchmark renders, for comparing two builds on a noisy machine.

    python3 bench/render-cpu.py BIN[,BIN...] [WORKLOADS] [ROUNDS]
    e.g.  python3 bench/render-cpu.py /tmp/old/carousel,.build/release/carousel photos,gradients 4

Runs `carousel render` with quality-bench.py's images and options for each workload
(samples, photos, gradients; all three by default), the builds alternating, ROUNDS times
(3 by default), and prints each run's wall time and CPU time (user + system of the child,
from getrusage). Alternating runs and comparing ranges is what tells a change from this
machine's run-to-run noise; one run of each build does not. The GIFs go to a temporary
folder.
"""
import resource, subprocess, sys, tempfile, time
from pathlib import Path

from benchmodules import load


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    quality = load("quality-bench.py")
    builds = sys.argv[1].split(",")
    names = sys.argv[2].split(",") if len(sys.argv) > 2 else ["samples", "photos", "gradients"]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    works = {w.name: w for w in quality.workloads(names)}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(rounds):
            for b, build in enumerate(builds):
                for name in names:
                    command = works[name].carousel(build, "render", "-o", Path(tmp) / f"{name}-{b}.gif")
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    start = time.time()
                    subprocess.run(command, check=True)
                    wall = time.time() - start
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                    print(f"{build}  {name:10} wall {wall:.3f} s  cpu {cpu:.3f} s", flush=True)


if __name__ == "__main__":
    main()
