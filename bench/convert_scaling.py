#!/usr/bin/python3
"""recflow convert of the taxi CSV on 1 thread against 2 threads, alternating, whole program.

Runs `recflow convert` on the taxi-like CSV (bench/taxi_csv.py) to 8 shards (uncompressed by default,
or --compression) with 1 and with 2 threads in rounds (1, 2, 1, 2, ...), and reports the best MB/s of
each, the median over rounds of (2-thread throughput / the same round's 1-thread throughput), and each
run's CPU time (user + system, from the child's rusage) over its wall time: a 2-thread run that keeps
both cores busy shows close to 2.0 there, one waiting on a serial step shows less. The output goes
under --work-dir (default build/, a disk whose dirty pages the kernel writes back on its own
threads, on the same cores; /dev/shm has no writeback).
"""
import argparse
import os
import statistics
import tempfile
from pathlib import Path

from bench_util import ROOT, convert_taxi, taxi_csv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--compression", default="none", help="none (default), gzip or zlib")
    parser.add_argument("--work-dir", default=str(ROOT / "build"), help="where the output goes (removed after)")
    args = parser.parse_args()
    csv = taxi_csv()
    mb = csv.stat().st_size / 1e6
    loads = [os.getloadavg()[0]]
    best = {1: float("inf"), 2: float("inf")}
    busy = {1: [], 2: []}
    cpu_seconds = {1: [], 2: []}
    ratios = []
    with tempfile.TemporaryDirectory(dir=args.work_dir) as tmp:
        out = Path(tmp) / "out"
        for _ in range(args.rounds):
            seconds = {}
            for threads in (1, 2):
                wall, cpu = convert_taxi(out, threads, "--compression", args.compression)
                seconds[threads] = wall
                best[threads] = min(best[threads], wall)
                busy[threads].append(cpu / wall)
                cpu_seconds[threads].append(cpu)
            ratios.append(seconds[1] / seconds[2])
    loads.append(os.getloadavg()[0])
    print(f"{csv.name}: {mb:.1f} MB, compression {args.compression}, {args.rounds} rounds, "
          f"load average {loads[0]:.2f} before, {loads[1]:.2f} after, output under {args.work_dir}")
    for threads in (1, 2):
        print(f"{threads} thread(s): best {mb / best[threads]:.1f} MB/s, "
              f"median CPU {statistics.median(cpu_seconds[threads]):.2f} s, CPU/wall {statistics.median(busy[threads]):.2f}")
    print(f"2 threads / 1 thread: median {statistics.median(ratios):.2f}x "
          f"(rounds: {' '.join(f'{r:.2f}' for r in ratios)}), best/best {best[1] / best[2]:.2f}x")


if __name__ == "__main__":
    main()
