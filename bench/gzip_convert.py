#!/usr/bin/python3
"""CSV → gzip TFRecord against the uncompressed convert of the same CSV, alternating, whole program.

Runs `recflow convert` on the taxi-like CSV (bench/taxi_csv.py) to 8 uncompressed shards and to 8
gzip shards at each --levels entry, in rounds (uncompressed, level a, level b, ... then again), and
reports per level the median over rounds of (gzip throughput / the same round's uncompressed
throughput) and the output size against zlib level 6 (`--level 6`). It also reports the same ratio
from CPU time (user + system, the child's rusage): on a loaded machine wall time measures the
machine, CPU time still measures the program.
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(os.environ.get("RECFLOW_BIN_DIR", ROOT / "build" / "release" / "bin"))
CSV = ROOT / "build" / "bench-data" / "taxi-1m.csv"


def convert(out: Path, threads: int, level) -> tuple[float, float]:
    """Wall and CPU seconds of one convert into `out` (removed first); level None = uncompressed."""
    shutil.rmtree(out, ignore_errors=True)
    cmd = [str(BIN / "recflow"), "convert", str(CSV), "-o", str(out), "--shards", "8", "--threads", str(threads),
           "--no-progress", "--no-sync"]
    if level is not None:
        cmd += ["--compression", "gzip", "--level", str(level)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def size(out: Path) -> int:
    return sum(p.stat().st_size for p in out.glob("*.tfrecord*"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--levels", default="-1,1,6", help="gzip levels to compare (comma-separated)")
    args = parser.parse_args()
    if not CSV.exists():
        subprocess.run(["/usr/bin/python3", str(ROOT / "bench" / "taxi_csv.py")], check=True)
    levels = [int(x) for x in args.levels.split(",")]
    mb = CSV.stat().st_size / 1e6
    with tempfile.TemporaryDirectory(dir=ROOT / "build") as tmp:
        out = Path(tmp) / "out"
        ratios = {level: [] for level in levels}
        cpu_ratios = {level: [] for level in levels}
        best = {level: float("inf") for level in [None] + levels}
        sizes = {}
        for _ in range(args.rounds):
            plain, plain_cpu = convert(out, args.threads, None)
            best[None] = min(best[None], plain)
            for level in levels:
                seconds, cpu = convert(out, args.threads, level)
                sizes[level] = size(out)
                best[level] = min(best[level], seconds)
                ratios[level].append(plain / seconds)
                cpu_ratios[level].append(plain_cpu / cpu)
        if 6 not in sizes:
            convert(out, args.threads, 6)
            sizes[6] = size(out)
    print(f"{CSV.name}: {mb:.1f} MB, {args.threads} thread(s), {args.rounds} rounds, "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"uncompressed: best {mb / best[None]:.1f} MB/s")
    for level in levels:
        print(f"gzip --level {level}: best {mb / best[level]:.1f} MB/s, median ratio to uncompressed "
              f"{statistics.median(ratios[level]):.2f} (by CPU time {statistics.median(cpu_ratios[level]):.2f}), "
              f"{sizes[level]} bytes = {sizes[level] / sizes[6]:.3f}× zlib 6")


if __name__ == "__main__":
    main()
