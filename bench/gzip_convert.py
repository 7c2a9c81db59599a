#!/usr/bin/python3
"""CSV → gzip TFRecord against the uncompressed convert of the same CSV, alternating, whole program.

Runs `recflow convert` on the taxi-like CSV (bench/taxi_csv.py) to 8 uncompressed shards and to 8
gzip shards at each --levels entry, in rounds (uncompressed, level a, level b, ... then again), and
reports per level the median over rounds of (gzip throughput / the same round's uncompressed
throughput) and the output size against zlib level 6 (`--level 6`). It also reports the same ratio
from CPU time (user + system, the child's rusage): on a loaded machine wall time measures the
machine, CPU time still measures the program.

With --chunk-levels it also runs bench/chunked_compression_benchmark's BM_DeflateChunks (every level of
zlib, ISA-L and libdeflate on 1 MiB chunks, one thread) on up to 64 MiB of the uncompressed convert's
TFRecords, and for each library level predicts the convert's CPU-time ratio to the uncompressed one:
the default level's convert CPU (ISA-L 2, measured here) less its chunks' CPU is what a gzip convert
costs besides compressing; each candidate adds its own chunk CPU to that (libdeflate's levels, which
recflow cannot write, are only predicted).
"""
import json
import argparse
import os
import statistics
import subprocess
import tempfile
from pathlib import Path

from bench_util import ROOT, convert_taxi, taxi_csv


def convert(out: Path, threads: int, level) -> tuple[float, float]:
    """Wall and CPU seconds of one convert into `out` (removed first); level None = uncompressed."""
    return convert_taxi(out, threads, *([] if level is None else ["--compression", "gzip", "--level", str(level)]))


def size(out: Path) -> int:
    return sum(p.stat().st_size for p in out.glob("*.tfrecord*"))


def chunk_levels(out: Path, threads: int) -> dict:
    """{(library, level): (compressed bytes, CPU seconds, MB/s a core)} of BM_DeflateChunks on up to 64 MiB
    of the TFRecords of an uncompressed convert into `out`, bytes and seconds scaled to all of them."""
    convert(out, threads, None)
    records = out.parent / "records.tfrecord"
    total = 0
    with open(records, "wb") as sample:
        for shard in sorted(out.glob("*.tfrecord")):
            data = shard.read_bytes()
            total += len(data)
            sample.write(data[:max(0, (64 << 20) - sample.tell())])
    run = subprocess.run([str(ROOT / "build" / "release" / "bench" / "chunked_compression_benchmark"),
                          "--benchmark_filter=BM_DeflateChunks", "--benchmark_format=json", "--benchmark_min_time=0.5"],
                         env={**os.environ, "RECFLOW_BENCH_DEFLATE_INPUT": str(records)},
                         check=True, capture_output=True, text=True)
    names = {"0": "zlib", "1": "isal", "2": "libdeflate"}
    rows = {}
    for bench in json.loads(run.stdout)["benchmarks"]:
        args = dict(part.split(":") for part in bench["name"].split("/")[1:])
        rate = bench["bytes_per_second"]  # from CPU time
        rows[(names[args["library"]], int(args["level"]))] = (bench["ratio"] * total, total / rate, rate / 1e6)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--levels", default="-1,1,6", help="gzip levels to compare (comma-separated)")
    parser.add_argument("--chunk-levels", action="store_true",
                        help="also measure every library level on the convert's chunks (BM_DeflateChunks)")
    args = parser.parse_args()
    if args.chunk_levels and "-1" not in args.levels.split(","):
        parser.error("--chunk-levels needs level -1 among --levels (the default level calibrates the prediction)")
    csv = taxi_csv()
    levels = [int(x) for x in args.levels.split(",")]
    mb = csv.stat().st_size / 1e6
    with tempfile.TemporaryDirectory(dir=ROOT / "build") as tmp:
        out = Path(tmp) / "out"
        ratios = {level: [] for level in levels}
        cpu_ratios = {level: [] for level in levels}
        cpu = {level: [] for level in [None] + levels}
        best = {level: float("inf") for level in [None] + levels}
        sizes = {}
        for _ in range(args.rounds):
            plain, plain_cpu = convert(out, args.threads, None)
            best[None] = min(best[None], plain)
            cpu[None].append(plain_cpu)
            for level in levels:
                seconds, level_cpu = convert(out, args.threads, level)
                sizes[level] = size(out)
                best[level] = min(best[level], seconds)
                cpu[level].append(level_cpu)
                ratios[level].append(plain / seconds)
                cpu_ratios[level].append(plain_cpu / level_cpu)
        if 6 not in sizes:
            convert(out, args.threads, 6)
            sizes[6] = size(out)
        chunk_rows = chunk_levels(out, args.threads) if args.chunk_levels else None
    print(f"{csv.name}: {mb:.1f} MB, {args.threads} thread(s), {args.rounds} rounds, "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"uncompressed: best {mb / best[None]:.1f} MB/s")
    for level in levels:
        print(f"gzip --level {level}: best {mb / best[level]:.1f} MB/s, median ratio to uncompressed "
              f"{statistics.median(ratios[level]):.2f} (by CPU time {statistics.median(cpu_ratios[level]):.2f}), "
              f"{sizes[level]} bytes = {sizes[level] / sizes[6]:.3f}× zlib 6")
    if chunk_rows:
        # CPU seconds of the default level's convert besides compressing.
        rest = statistics.median(cpu[-1]) - chunk_rows[("isal", 2)][1]
        plain_cpu = statistics.median(cpu[None])
        zlib6 = chunk_rows[("zlib", 6)][0]
        print(f"BM_DeflateChunks on the uncompressed convert's TFRecords, one thread: the convert's CPU besides "
              f"compressing {rest:.2f} s, the uncompressed convert's {plain_cpu:.2f} s")
        for (library, level), (compressed, seconds, mb_per_s) in chunk_rows.items():
            print(f"{library} {level}: {mb_per_s:.0f} MB/s a core, size {compressed / zlib6:.3f}× zlib 6's, "
                  f"predicted convert ratio to uncompressed by CPU time {plain_cpu / (rest + seconds):.2f}")


if __name__ == "__main__":
    main()
