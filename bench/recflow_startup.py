#!/usr/bin/python3
"""Startup of `recflow --version`: this build's binary against a baseline binary, alternating (A B A B ...).

Reports each binary's best and median wall and CPU seconds (wait4) and the median per-round ratio
baseline / this build — what loading GDAL at startup cost before the raster plugin (issue 16).
"""
import argparse
import os
import statistics
from pathlib import Path

from bench_util import ROOT, timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--baseline", type=Path, required=True, help="another recflow binary (an earlier build)")
    parser.add_argument("--binary", type=Path, default=ROOT / "build" / "release" / "bin" / "recflow")
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    binaries = {"baseline": args.baseline, "this build": args.binary}
    wall = {name: [] for name in binaries}
    cpu = {name: [] for name in binaries}
    for _ in range(args.rounds):
        for name, binary in binaries.items():
            seconds, cpu_seconds, _ = timed([binary, "--version"])
            wall[name].append(seconds)
            cpu[name].append(cpu_seconds)
    for name in binaries:
        print(f"{name:10} wall best {min(wall[name]):.4f} s median {statistics.median(wall[name]):.4f} s  "
              f"CPU best {min(cpu[name]):.4f} s median {statistics.median(cpu[name]):.4f} s")
    ratio = statistics.median(a / b for a, b in zip(wall["baseline"], wall["this build"]))
    cpu_ratio = statistics.median(a / b for a, b in zip(cpu["baseline"], cpu["this build"]))
    print(f"median per round baseline / this build: wall {ratio:.1f}x, CPU {cpu_ratio:.1f}x; load {os.getloadavg()}")


if __name__ == "__main__":
    main()
