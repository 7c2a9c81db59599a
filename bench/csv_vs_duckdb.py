#!/usr/bin/python3
"""CSV read throughput of recflow against DuckDB (1 and 2 threads), convert scaling, and peak RSS with --big."""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "build" / "bench-data"
BIN = Path(os.environ.get("RECFLOW_BIN_DIR", ROOT / "build" / "release" / "bin"))
DUCKDB_BENCH = ROOT / "tests" / "node" / "duckdb_csv_bench.mjs"
WORDS = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu"]


def generate(path: Path, target_bytes: int, seed: int = 42) -> Path:
    """Writes a CSV of about `target_bytes` once (kept across runs): ints, floats, short strings, a quoted field."""
    if path.exists() and path.stat().st_size >= target_bytes * 0.95:
        return path
    rng = random.Random(seed)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", newline="") as f:
        f.write("id,user,score,ratio,price,city,tag,comment\n")
        written, i = 0, 0
        while written < target_bytes:
            lines = []
            for _ in range(10000):
                w = rng.choice(WORDS)
                lines.append(f'{i},{rng.randint(-2**62, 2**62)},{rng.random() * 1000:.6f},{rng.random()!r},'
                             f'{rng.randint(1, 99999) / 100},{w},{rng.choice(WORDS)}{i % 97},'
                             f'"{w}, {rng.choice(WORDS)}, {rng.randint(0, 9999)}"\n')
                i += 1
            chunk = "".join(lines)
            f.write(chunk)
            written += len(chunk)
    tmp.rename(path)
    return path


def mbps(path: Path, seconds: float) -> float:
    return path.stat().st_size / 1e6 / seconds


def best_wall(cmd, repeat=3):
    """Best wall-clock seconds of `cmd` over `repeat` runs, and its last output."""
    best, out = float("inf"), ""
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        elapsed = time.perf_counter() - start
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(map(str, cmd))} failed: {proc.stderr.strip()[:500]}")
        best, out = min(best, elapsed), proc.stdout.strip()
    return best, out


def duckdb_times(csv: Path, threads, repeat=3):
    proc = subprocess.run(["node", str(DUCKDB_BENCH), str(csv), "--threads", ",".join(map(str, threads)),
                           "--repeat", str(repeat)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"DuckDB bench failed: {proc.stderr.strip()[:500]}")
    return json.loads(proc.stdout)


def peak_rss_kib(cmd) -> int:
    proc = subprocess.run(["/usr/bin/time", "-v", *map(str, cmd)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} failed: {proc.stderr.strip()[-500:]}")
    return int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr).group(1))


def convert_cmd(csv: Path, out: Path, threads: int):
    return [BIN / "recflow", "convert", csv, "-o", out, "--compression", "gzip", "--shards", "16",
            "--threads", str(threads), "--mode", "overwrite"]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--big", action="store_true", help="also peak RSS of convert on a 2 GB CSV")
    ap.add_argument("--mb", type=int, default=200, help="size of the main CSV in MB (default 200)")
    args = ap.parse_args()
    DATA.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    csv = generate(DATA / f"mixed-{args.mb}mb.csv", args.mb * 10**6)
    print(f"data: {csv} {csv.stat().st_size / 1e6:.0f} MB (ready in {time.perf_counter() - t0:.1f} s); "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    threads = [1, 2]

    duck = duckdb_times(csv, threads)
    scan = BIN / "recflow-csv-scan"
    print(f"\n{'threads':>7} {'DuckDB MB/s':>12} {'recflow-csv-scan MB/s':>22} {'recflow/DuckDB':>15}")
    for n in threads:
        d = mbps(csv, min(duck[str(n)]))
        if scan.exists():
            seconds, out = best_wall([scan, csv, "--threads", str(n)])
            r = mbps(csv, seconds)
            print(f"{n:>7} {d:>12.1f} {r:>22.1f} {r / d:>15.2f}   ({out.splitlines()[-1] if out else ''})")
        else:
            print(f"{n:>7} {d:>12.1f} {'(not built: ' + str(scan.name) + ')':>22}")
    print(f"DuckDB rows: {duck['rows']}; seconds per run: " +
          ", ".join(f"{n}t {[round(s, 2) for s in duck[str(n)]]}" for n in threads))

    recflow = BIN / "recflow"
    if not recflow.exists() or not re.search(r"(?m)^\s+convert\s",
                                             subprocess.run([recflow, "--help"], capture_output=True, text=True).stdout):
        print("\nrecflow convert: not built yet; skipped")
        return
    out = DATA / "convert-out"
    print(f"\n{'threads':>7} {'convert MB/s':>13}  (gzip, 16 shards, best of 3)")
    best = {}
    for n in threads:
        best[n], _ = best_wall(convert_cmd(csv, out, n))
        print(f"{n:>7} {mbps(csv, best[n]):>13.1f}")
    print(f"scaling 2 threads / 1 thread: {best[1] / best[2]:.2f}x")
    shutil.rmtree(out, ignore_errors=True)

    if args.big:
        big = DATA / "mixed-2000mb.csv"
        if not big.exists():
            body = csv.read_bytes().split(b"\n", 1)[1]
            with open(big.with_suffix(".tmp"), "wb") as f:
                f.write(b"id,user,score,ratio,price,city,tag,comment\n")
                for _ in range(10):
                    f.write(body)
            big.with_suffix(".tmp").rename(big)
        for n in threads:
            kib = peak_rss_kib(convert_cmd(big, out, n))
            print(f"convert {big.stat().st_size / 1e9:.1f} GB, {n} threads: peak RSS {kib / 1024:.0f} MiB")
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
