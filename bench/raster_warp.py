#!/usr/bin/python3
"""warp against gdalwarp on a crop of a synthetic Sentinel-2 band, alternating, whole program, same thread count.

Uses the top-left --crop × --crop pixels (default 4096, 168 M pixels for the whole band being minutes per run on a
loaded machine) of bench/raster_evi.py's 10980 × 10980 uint16 red band (made once: tiled 512 × 512, DEFLATE, nodata
0, EPSG:32629), cut once with gdal_translate (same tiling and compression), and runs in rounds: recflow (bench/raster_warp.yaml: read_raster → warp to EPSG:3857 → write_raster as
an uncompressed tiled float32 GeoTIFF) and gdalwarp with the options warp uses (-et 0, the grid's XSCALE/YSCALE,
-ot Float32 -dstnodata nan, uncompressed tiled 512 × 512), both on --threads (gdalwarp: -multi -wo NUM_THREADS).
Reports each command's best and median seconds, CPU seconds and peak RSS (wait4), the median over rounds of
gdalwarp / recflow, and checks that the two outputs hold the same values.
"""
import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

import rasterio

sys.path.insert(0, str(Path(__file__).resolve().parent))
from raster_evi import BIN, ROOT, compare_outputs, make_band, timed  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--resampling", default="bilinear")
    parser.add_argument("--crop", type=int, default=4096)
    parser.add_argument("--dir", type=Path, default=ROOT / "build" / "bench-data" / "raster-evi")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    band = args.dir / "red.tif"
    if not band.exists():
        make_band(band, 1)
    red = args.dir / f"red-{args.crop}.tif"
    if not red.exists():
        subprocess.run(["gdal_translate", "-q", "-srcwin", "0", "0", str(args.crop), str(args.crop), "-co", "TILED=YES",
                        "-co", "BLOCKXSIZE=512", "-co", "BLOCKYSIZE=512", "-co", "COMPRESS=DEFLATE", str(band), str(red)],
                       check=True)
    scenes = args.dir / "warp-scenes.jsonl"
    scenes.write_text(json.dumps({"scene_id": "warp", "red": str(red)}) + "\n")
    # The kernel scale warp fixes for the grid: the source's own resolution in EPSG:3857 over the target's (the same
    # grid here, so 1).
    out = args.dir / "gdalwarp.tif"
    commands = {
        "recflow": [str(BIN / "recflow"), "run", str(ROOT / "bench" / "raster_warp.yaml"), "--set", f"scenes={scenes}",
                    "--set", f"out={args.dir / 'recflow-warp'}", "--set", f"resampling={args.resampling}",
                    "--threads", str(args.threads), "--quiet"],
        "gdalwarp": ["gdalwarp", "-q", "-overwrite", "-t_srs", "EPSG:3857", "-r", args.resampling, "-et", "0",
                     "-wo", "XSCALE=1", "-wo", "YSCALE=1", "-ot", "Float32", "-dstnodata", "nan",
                     "-co", "TILED=YES", "-co", "BLOCKXSIZE=512", "-co", "BLOCKYSIZE=512",
                     "-multi", "-wo", f"NUM_THREADS={args.threads}", str(red), str(out)],
    }
    runs = {name: [] for name in commands}
    for _ in range(args.rounds):
        for name, cmd in commands.items():
            runs[name].append(timed(cmd))
    for name in commands:
        wall = [r[0] for r in runs[name]]
        cpu = [r[1] for r in runs[name]]
        print(f"{name:9} best {min(wall):7.2f} s  median {statistics.median(wall):7.2f} s  "
              f"CPU median {statistics.median(cpu):7.2f} s  peak RSS {max(r[2] for r in runs[name]) / 2**20:6.0f} MiB"
              f"  runs {' '.join(f'{s:.2f}' for s in wall)}")
    ratio = statistics.median(g[0] / r[0] for g, r in zip(runs["gdalwarp"], runs["recflow"]))
    cpu_ratio = statistics.median(g[1] / r[1] for g, r in zip(runs["gdalwarp"], runs["recflow"]))
    print(f"median per round: gdalwarp / recflow wall {ratio:.2f}x, CPU {cpu_ratio:.2f}x")
    with rasterio.open(args.dir / "recflow-warp" / "warp.tif") as a, rasterio.open(out) as b:
        assert (a.width, a.height) == (b.width, b.height) and a.transform.almost_equals(b.transform, precision=1e-9)
    worst, same_mask = compare_outputs(args.dir / "recflow-warp" / "warp.tif", out)
    print(f"outputs: max abs difference {worst:.2e}, identical NaN masks: {same_mask}")


if __name__ == "__main__":
    main()
