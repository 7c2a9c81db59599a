#!/usr/bin/python3
"""The image pipeline benchmark, all in one run: recflow's pipeline (bench/image_pipeline.yaml) on 1 and 2 threads
against its floor (recflow-image-floor: read + decode + resize in a bare loop, same images, same threads; the
pipeline writes its output to tmpfs, as the floor writes nothing), and the
same job written in plain Python with Pillow and python3-protobuf, the program a Beam user would otherwise write."""
import argparse
import csv
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(os.environ.get("RECFLOW_BIN_DIR", ROOT / "build" / "release" / "bin"))
DATA = ROOT / "build" / "bench-data"
sys.path.insert(0, str(ROOT / "tests" / "python"))


def images(data: Path) -> Path:
    """Fashion-MNIST unpacked to PNG files and labels (examples/image-classification/unpack.yaml), made once."""
    labels = data / "labels" / "part-00000-of-00001.csv"
    if not labels.exists():
        subprocess.run([BIN / "recflow", "run", ROOT / "examples" / "image-classification" / "unpack.yaml",
                        "--set", f"out={data}", "--quiet"], check=True)
    return labels


def best(fn, repeat):
    return min(fn() for _ in range(repeat))


def pipeline_seconds(data: Path, out: Path, threads: int) -> float:
    start = time.perf_counter()
    subprocess.run([BIN / "recflow", "run", ROOT / "bench" / "image_pipeline.yaml", "--set", f"data={data}",
                    "--set", f"out={out}", "--threads", str(threads), "--quiet"],
                   check=True, capture_output=True)
    return time.perf_counter() - start


def floor_seconds(labels: Path, data: Path, threads: int) -> float:
    """Whole-program wall time, measured from outside as the pipeline's is."""
    start = time.perf_counter()
    done = subprocess.run([BIN / "recflow-image-floor", labels, data, str(threads), "32"], check=True,
                          capture_output=True, text=True)
    seconds = time.perf_counter() - start
    assert json.loads(done.stdout)["failed"] == 0
    return seconds


def python_images_per_second(labels: Path, data: Path, limit: int) -> float:
    """read CSV → open + decode + resize with Pillow → tf.Example with python3-protobuf → TFRecord (crcmod's C CRC)."""
    from PIL import Image
    import crcmod.predefined
    from tfrecord_util import generate_proto_module
    (DATA / "proto").mkdir(parents=True, exist_ok=True)
    pb = generate_proto_module(ROOT / "tests" / "proto" / "example.proto", DATA / "proto")
    crc = crcmod.predefined.mkPredefinedCrcFun("crc-32c")

    def masked(b):
        c = crc(b)
        return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF

    start = time.perf_counter()
    with open(labels) as f, open(DATA / "python-out.tfrecord", "wb") as out:
        for n, row in enumerate(csv.DictReader(f)):
            if n == limit:
                break
            encoded = (data / row["path"]).read_bytes()
            img = Image.open(io.BytesIO(encoded)).convert("L")
            img.load()
            img.resize((32, 32), Image.BILINEAR)
            example = pb.Example()
            feature = example.features.feature
            feature["image/encoded"].bytes_list.value.append(encoded)
            feature["image/format"].bytes_list.value.append(b"png")
            feature["image/height"].int64_list.value.append(img.height)
            feature["image/width"].int64_list.value.append(img.width)
            feature["image/channels"].int64_list.value.append(1)
            feature["image/class/label"].int64_list.value.append(int(row["label"]))
            feature["image/filename"].bytes_list.value.append(row["path"].encode())
            record = example.SerializeToString()
            length = struct.pack("<Q", len(record))
            out.write(length + struct.pack("<I", masked(length)) + record + struct.pack("<I", masked(record)))
    return limit / (time.perf_counter() - start)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--python-images", type=int, default=10000, help="images the Python peer processes")
    ap.add_argument("--out", type=Path, default=Path("/dev/shm/recflow-image-pipeline-out"),
                    help="the pipeline's output directory (default in tmpfs: the floor writes nothing, so the "
                         "VM's disk writeback is kept out of the comparison)")
    args = ap.parse_args()
    data = DATA / "fashion-mnist"
    labels = images(data)
    n = sum(1 for _ in open(labels)) - 1
    rows = []
    for threads in (1, 2):
        floor = n / best(lambda: floor_seconds(labels, data, threads), args.repeat)
        ours = n / best(lambda: pipeline_seconds(data, args.out, threads), args.repeat)
        rows.append((threads, floor, ours))
    shutil.rmtree(args.out, ignore_errors=True)
    python = python_images_per_second(labels, data, args.python_images)
    print(f"{n} Fashion-MNIST PNG images (28x28 gray), resized to 32x32, written as tf.Examples")
    print(f"{'threads':>7} {'floor img/s':>12} {'recflow img/s':>14} {'of floor':>9}")
    for threads, floor, ours in rows:
        print(f"{threads:>7} {floor:>12.0f} {ours:>14.0f} {ours / floor:>8.0%}")
    print(f"recflow 2 threads / 1 thread: {rows[1][2] / rows[0][2]:.2f}x (floor: {rows[1][1] / rows[0][1]:.2f}x)")
    print(f"plain Python + Pillow + protobuf (1 process): {python:.0f} img/s; "
          f"recflow is {rows[0][2] / python:.1f}x on 1 thread, {rows[1][2] / python:.1f}x on 2")


if __name__ == "__main__":
    main()
