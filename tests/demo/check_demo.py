#!/usr/bin/env python3
"""The `make demo` job as a test: runs scripts/demo into a fresh temporary directory and checks what it made.

Usage: check_demo.py BUILD_DIR (the build whose bin/recflow and bin/recflow-idx-to-tfrecord the demo runs).
ctest runs it with the label `demo`, so `make test` (and CI) proves the README's first command.
"""
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "python"))
from tfrecord_util import generate_proto_module, read_tfrecord  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
IRIS = Path("/usr/lib/python3/dist-packages/sklearn/datasets/data/iris.csv")


def fail(message):
    print(f"check_demo: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


def records(path):
    """The records of one TFRecord file (the demo's writer is checked by CRC elsewhere)."""
    return read_tfrecord(path, check_crc=False)


def check_partitioned(dataset, partitions, shards, total, pb=None):
    """A committed dataset: `partitions` label=N directories of `shards` GZIP shards, `total` records."""
    expect((dataset / "_SUCCESS").is_file(), f"{dataset}: no _SUCCESS")
    dirs = sorted(p.name for p in dataset.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))
    expect(dirs == [f"label={k}" for k in range(partitions)], f"{dataset}: partition directories {dirs}")
    count = 0
    for d in dirs:
        files = sorted((dataset / d).iterdir())
        names = [f.name for f in files]
        expect(names == [f"part-{s:05d}-of-{shards:05d}.tfrecord.gz" for s in range(shards)], f"{dataset / d}: {names}")
        for f in files:
            count += len(records(f))
    expect(count == total, f"{dataset}: {count} records, expected {total}")


def main():
    if len(sys.argv) != 2:
        fail("usage: check_demo.py BUILD_DIR")
    build = Path(sys.argv[1]).resolve()
    with tempfile.TemporaryDirectory(prefix="recflow-demo-") as tmp:
        out = Path(tmp) / "demo"
        env = dict(os.environ, RECFLOW_BUILD_DIR=str(build), RECFLOW_DEMO_DIR=str(out))
        proc = subprocess.run([str(ROOT / "scripts" / "demo")], env=env, capture_output=True, text=True, timeout=900)
        sys.stdout.write(proc.stdout[-4000:])
        if proc.returncode != 0:
            sys.stderr.write(proc.stderr)
            fail(f"scripts/demo exited {proc.returncode}")
        expect("recflow: warning" not in proc.stderr, f"the demo warned:\n{proc.stderr}")
        expect("stage 1 of 1" in proc.stdout, "the plan of the main job is not in the demo's output")
        (Path(tmp) / "proto").mkdir()
        pb = generate_proto_module(ROOT / "tests" / "proto" / "example.proto", Path(tmp) / "proto")

        # The unpacked Fashion-MNIST: 70 000 PNG files and a CSV of path,label.
        images = out / "fashion-mnist"
        lines = (images / "labels" / "part-00000-of-00001.csv").read_text().splitlines()
        expect(lines[0] == "path,label" and len(lines) == 70001, f"labels CSV: {len(lines)} lines, header {lines[0]!r}")
        first_png = images / lines[1].split(",")[0]
        expect(first_png.read_bytes().startswith(PNG_MAGIC), f"{first_png} is not a PNG")

        # The main job: 16 GZIP shards per label, 7 000 examples each, with both encoded images.
        main_out = out / "fashion-mnist-tfrecord"
        check_partitioned(main_out, 10, 16, 70000)
        example = pb.Example.FromString(records(main_out / "label=3" / "part-00000-of-00016.tfrecord.gz")[0])
        features = example.features.feature
        for key in ("image/encoded", "image/augmented/encoded"):
            expect(features[key].bytes_list.value[0].startswith(PNG_MAGIC), f"{key} is not a PNG")
        expect(features["image/height"].int64_list.value == [28], "image/height is not 28")
        metrics = json.loads((out / "metrics.json").read_text())
        steps = {s["name"] for s in metrics["steps"]}
        expect({"read", "load", "decode", "resize", "augment"} <= steps, f"metrics steps: {sorted(steps)}")
        letters = out / "fashion-mnist-tfrecord-dead-letters.jsonl"
        expect(not letters.exists() or letters.stat().st_size == 0, "the main job wrote dead letters")

        # Feature engineering on scikit-learn's iris CSV (python3-sklearn, which install-deps --demo installs).
        expect(IRIS.exists(), f"{IRIS} missing: scripts/install-deps --demo installs python3-sklearn")
        iris = [r for f in sorted((out / "iris-features").glob("part-*")) for r in records(f)]
        expect(len(iris) == 150, f"iris: {len(iris)} records")
        vocab = (out / "iris-features-species.vocab").read_text().split()
        expect(sorted(vocab) == ["0", "1", "2"], f"species vocabulary {vocab}")  # the CSV's class ids

        # The IDX converter and `recflow convert` into label partitions.
        t10k = records(out / "fashion-mnist-t10k.tfrecord.gz")
        expect(len(t10k) == 10000, f"t10k: {len(t10k)} records")
        check_partitioned(out / "fashion-mnist-by-label", 10, 4, 10000)
        expect("partition" in proc.stdout, "the demo did not inspect the partitioned dataset")

        # The raster example, when the shared bands are there: one COG per scene and their statistics.
        if (ROOT.parent / "shared" / "testdata" / "raster" / "sentinel2-l2a").is_dir():
            evi = out / "sentinel2-evi"
            tifs = sorted(p.name for p in evi.glob("*.tif"))
            expect(tifs == ["LC08_C2L2.tif", "S2_29RKH_20200219.tif"], f"EVI rasters: {tifs}")
            expect((evi / "S2_29RKH_20200219.tif").read_bytes()[:4] == b"II*\0", "the EVI raster is not a TIFF")
            stats = [json.loads(line) for line in (evi / "stats" / "part-00000-of-00001.jsonl").read_text().splitlines()]
            expect([s["valid_count"] for s in stats] == [1205604, 88000], f"EVI statistics: {stats}")
            # EVI's rule (docs/raster.md) leaves Landsat's cloud pixels out: finite statistics, read back as floats.
            expect(all(isinstance(s[k], float) and math.isfinite(s[k]) and -1 <= s[k] <= 1
                       for s in stats for k in ("min", "max", "mean")), f"EVI statistics not finite: {stats}")

            # Its streaming twin on the local nats-server: one session per tile, one EVI COG and one message each,
            # the same EVI as the batch run's (a session of one scene is that scene).
            stream = out / "sentinel2-stream"
            tifs = sorted(p.name for p in stream.glob("*.tif"))
            expect(tifs == ["29RKH-1582112000000.tif", "LC08-1582112030000.tif"], f"streamed EVI rasters: {tifs}")
            messages = [json.loads(line) for f in sorted((stream / "messages").glob("part-*"))
                        for line in f.read_text().splitlines()]
            got = sorted((m["tile"], m["scenes"], m["path"], m["valid_count"]) for m in messages)
            expect(got == [("29RKH", ["S2_29RKH_20200219"], "29RKH-1582112000000.tif", 1205604),
                           ("LC08", ["LC08_C2L2"], "LC08-1582112030000.tif", 88000)], f"streamed messages: {got}")
    print("check_demo: ok")


if __name__ == "__main__":
    main()
