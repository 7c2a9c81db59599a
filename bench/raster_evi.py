#!/usr/bin/python3
"""EVI on a synthetic Sentinel-2-sized scene: recflow against the rasterio + NumPy script, alternating, whole program.

Makes (once, with GDAL through rasterio) three 10980 × 10980 uint16 bands — tiled 512 × 512, DEFLATE, nodata 0,
EPSG:32629, a smooth field plus noise with a nodata corner — then runs in rounds: recflow on 1 thread, recflow on 2
threads (bench/raster_evi.yaml: read_raster → evi → write_raster as a tiled DEFLATE GeoTIFF) and
bench/raster_evi_numpy.py (the same file from whole bands). Reports each command's best and median seconds and
CPU time and peak RSS (wait4), the median over rounds of numpy / recflow-2-threads and of recflow 1 → 2 threads, and checks
that the two outputs hold the same values (max abs difference, NaN masks).
"""
import argparse
import json
import os
import statistics
import subprocess
import time
from pathlib import Path

import numpy as np
import rasterio
from rasterio.transform import from_origin
from rasterio.windows import Window

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(os.environ.get("RECFLOW_BIN_DIR", ROOT / "build" / "release" / "bin"))
SIZE = 10980


def make_band(path: Path, seed: int) -> None:
    """One band, written block row by block row (bounded memory), renamed into place when whole."""
    profile = dict(driver="GTiff", width=SIZE, height=SIZE, count=1, dtype="uint16", nodata=0, tiled=True,
                   blockxsize=512, blockysize=512, compress="deflate", crs="EPSG:32629",
                   transform=from_origin(199980, 2800020, 10, 10))
    rng = np.random.default_rng(seed)
    x = np.arange(SIZE, dtype=np.float64)
    partial = path.with_suffix(".partial.tif")
    with rasterio.open(partial, "w", **profile) as dst:
        for y0 in range(0, SIZE, 512):
            h = min(512, SIZE - y0)
            y = np.arange(y0, y0 + h, dtype=np.float64)[:, None]
            field = 2000 + 1500 * np.sin(x / 700 + seed) * np.cos(y / 900) + rng.normal(0, 150, (h, SIZE))
            dn = np.clip(field, 1, 10000).astype(np.uint16)
            if y0 < 1024:
                dn[:, :1024] = 0  # a nodata corner
            dst.write(dn, 1, window=Window(0, y0, SIZE, h))
    partial.rename(path)


def timed(cmd) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system, wait4) and peak RSS (bytes) of one run of `cmd`. The peak is GNU
    time's: a child's own wait4 figure starts at this Python process's high-water mark, inherited through exec."""
    start = time.perf_counter()
    proc = subprocess.Popen(["/usr/bin/time", "-f", "%M", *cmd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    stderr = proc.stderr.read().decode()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{cmd[0]} failed: {stderr}")
    return seconds, usage.ru_utime + usage.ru_stime, int(stderr.split()[-1]) * 1024


def compare_outputs(path_a: Path, path_b: Path) -> tuple[float, bool]:
    """The largest absolute difference between two one-band rasters' finite values and whether their NaN masks
    are identical, block by block (bounded memory)."""
    with rasterio.open(path_a) as a, rasterio.open(path_b) as b:
        worst, same_mask = 0.0, True
        for _, window in a.block_windows(1):
            x, y = a.read(1, window=window), b.read(1, window=window)
            same_mask &= bool(np.array_equal(np.isnan(x), np.isnan(y)))
            finite = np.isfinite(x) & np.isfinite(y)
            if finite.any():
                worst = max(worst, float(np.max(np.abs(x[finite].astype(np.float64) - y[finite]))))
    return worst, same_mask


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=ROOT / "build" / "bench-data" / "raster-evi")
    parser.add_argument("--baseline", type=Path,
                        help="another recflow binary (an earlier build) run on 1 and 2 threads in the same rounds")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    bands = {name: args.dir / f"{name}.tif" for name in ("blue", "red", "nir")}
    for seed, path in enumerate(bands.values()):
        if not path.exists():
            make_band(path, seed)
    scenes = args.dir / "scenes.jsonl"
    scenes.write_text(json.dumps({"scene_id": "evi", **{k: str(v) for k, v in bands.items()}}) + "\n")

    def recflow(threads, binary=BIN / "recflow"):
        return [str(binary), "run", str(ROOT / "bench" / "raster_evi.yaml"), "--set", f"scenes={scenes}",
                "--set", f"out={args.dir / f'recflow-{threads}'}", "--threads", str(threads), "--quiet"]

    commands = {
        "recflow 1 thread": recflow(1),
        "recflow 2 threads": recflow(2),
        "rasterio + numpy": ["/usr/bin/python3", str(ROOT / "bench" / "raster_evi_numpy.py"),
                             *map(str, bands.values()), str(args.dir / "numpy.tif")],
    }
    if args.baseline:
        # The baseline writes beside recflow's outputs, under its own names.
        for threads in (1, 2):
            cmd = recflow(threads, args.baseline)
            cmd[cmd.index(f"out={args.dir / f'recflow-{threads}'}")] = f"out={args.dir / f'baseline-{threads}'}"
            commands[f"baseline {threads} thread" + ("s" if threads > 1 else "")] = cmd
    seconds = {name: [] for name in commands}
    cpu = {name: [] for name in commands}
    rss = {name: 0 for name in commands}
    for _ in range(args.rounds):
        for name, cmd in commands.items():
            s, c, peak = timed(cmd)
            seconds[name].append(s)
            cpu[name].append(c)
            rss[name] = max(rss[name], peak)
    for name in commands:
        print(f"{name:18} best {min(seconds[name]):7.2f} s  median {statistics.median(seconds[name]):7.2f} s  "
              f"CPU best {min(cpu[name]):7.2f} s  peak RSS {rss[name] / 2**20:7.0f} MiB  "
              f"runs {' '.join(f'{s:.2f}' for s in seconds[name])}")
    speedup = statistics.median(n / r for n, r in zip(seconds["rasterio + numpy"], seconds["recflow 2 threads"]))
    scaling = statistics.median(a / b for a, b in zip(seconds["recflow 1 thread"], seconds["recflow 2 threads"]))
    print(f"median per round: numpy / recflow (2 threads) {speedup:.2f}x; recflow 1 -> 2 threads {scaling:.2f}x")
    if args.baseline:
        for threads in ("1 thread", "2 threads"):
            ratio = statistics.median(b / r for b, r in zip(seconds[f"baseline {threads}"], seconds[f"recflow {threads}"]))
            cpu_ratio = statistics.median(b / r for b, r in zip(cpu[f"baseline {threads}"], cpu[f"recflow {threads}"]))
            print(f"median per round: baseline / recflow on {threads}: wall {ratio:.2f}x, CPU {cpu_ratio:.2f}x")
    worst, same_mask = compare_outputs(args.dir / "recflow-2" / "evi.tif", args.dir / "numpy.tif")
    print(f"outputs: max abs difference {worst:.2e}, identical NaN masks: {same_mask}")


if __name__ == "__main__":
    main()
