"""The image-classification example end to end: Fashion-MNIST IDX → PNG files + labels.csv → 16 GZIP TFRecord
shards partitioned by label; every example read back with python3-protobuf and Pillow equals the IDX source."""
import gzip
import io
import json
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from tfrecord_util import read_tfrecord

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "image-classification"
IDX = Path("/usr/share/datasets/fashion-mnist")
SKIMAGE_DATA = Path("/usr/lib/python3/dist-packages/skimage/data")

Image = pytest.importorskip("PIL.Image")


def read_idx(path: Path):
    """(dims, bytes) of a gzipped IDX file, parsed here independently of recflow."""
    data = gzip.decompress(path.read_bytes())
    magic, = struct.unpack(">I", data[:4])
    ndim = magic & 0xFF
    dims = struct.unpack(">" + "I" * ndim, data[4:4 + 4 * ndim])
    return dims, data[4 + 4 * ndim:]


def recflow(recflow_bin, *args, check=True):
    done = subprocess.run([str(recflow_bin), *map(str, args)], capture_output=True, text=True, timeout=600)
    if check:
        assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def demo_output(recflow_bin, tmp_path_factory):
    if not IDX.is_dir():
        pytest.skip("dataset-fashion-mnist is not installed")
    root = tmp_path_factory.mktemp("demo")
    data, out = root / "fashion-mnist", root / "tfrecord"
    recflow(recflow_bin, "run", EXAMPLE / "unpack.yaml", "--set", f"out={data}", "--quiet")
    metrics = root / "metrics.json"
    recflow(recflow_bin, "run", EXAMPLE / "pipeline.yaml", "--set", f"data={data}", "--set", f"out={out}",
            "--metrics", metrics, "--quiet")
    return data, out, json.loads(metrics.read_text())


def test_every_example_equals_the_idx_source(demo_output, pb):
    data, out, metrics = demo_output
    sources = {}
    for split, prefix in (("train", "train"), ("test", "t10k")):
        dims, pixels = read_idx(IDX / f"{prefix}-images-idx3-ubyte.gz")
        _, labels = read_idx(IDX / f"{prefix}-labels-idx1-ubyte.gz")
        sources[split] = (dims, pixels, labels)
    shards = sorted(out.rglob("*.tfrecord.gz"))
    assert len(shards) == 16 * 10  # 16 shards in each of the 10 label partitions
    assert (out / "_SUCCESS").exists()
    seen = set()
    for shard in shards:
        partition_label = int(shard.parent.name.split("=")[1])
        for record in read_tfrecord(shard, check_crc=False):
            example = pb.Example()
            example.ParseFromString(record)
            f = example.features.feature
            filename = f["image/filename"].bytes_list.value[0].decode()
            _, split, label_dir, name = filename.split("/")
            index = int(name.split(".")[0])
            dims, pixels, labels = sources[split]
            label = labels[index]
            assert int(label_dir) == label == partition_label
            assert f["image/class/label"].int64_list.value[0] == label
            # The partition column is in the directory name, not in the example (as Spark writes it).
            assert "label" not in f
            assert f["image/format"].bytes_list.value[0] == b"png"
            assert f["image/height"].int64_list.value[0] == 28 and f["image/width"].int64_list.value[0] == 28
            assert f["image/channels"].int64_list.value[0] == 1
            decoded = Image.open(io.BytesIO(f["image/encoded"].bytes_list.value[0]))
            assert decoded.size == (28, 28)
            assert decoded.tobytes() == pixels[index * 784:(index + 1) * 784], filename
            augmented = Image.open(io.BytesIO(f["image/augmented/encoded"].bytes_list.value[0]))
            assert augmented.size == (32, 32)
            seen.add((split, index))
    assert len(seen) == 70000
    steps = {s["name"]: s for s in metrics["steps"]}
    assert steps["decode"]["rows_out"] == 70000 and steps["load"]["failed_rows"] == 0


def test_the_augmentation_is_pillows_resize_then_a_seeded_flip(demo_output, pb):
    """Resized pixels equal Pillow's bilinear resize (flipped or not); about half the rows are flipped."""
    data, out, _ = demo_output
    shard = sorted(out.rglob("*.tfrecord.gz"))[0]
    flipped = 0
    records = read_tfrecord(shard)  # CRCs checked on one shard
    for record in records:
        example = pb.Example()
        example.ParseFromString(record)
        f = example.features.feature
        original = Image.open(io.BytesIO(f["image/encoded"].bytes_list.value[0]))
        expected = original.resize((32, 32), Image.BILINEAR)
        got = Image.open(io.BytesIO(f["image/augmented/encoded"].bytes_list.value[0])).tobytes()
        if got != expected.tobytes():
            assert got == expected.transpose(Image.FLIP_LEFT_RIGHT).tobytes()
            flipped += 1
    assert 0.3 < flipped / len(records) < 0.7


def test_the_same_output_for_one_and_two_threads(demo_output, recflow_bin, tmp_path):
    data, out, _ = demo_output
    one = tmp_path / "one"
    recflow(recflow_bin, "run", EXAMPLE / "pipeline.yaml", "--set", f"data={data}", "--set", f"out={one}",
            "--threads", "1", "--quiet")
    for shard in sorted(out.rglob("*.tfrecord.gz")):
        assert (one / shard.relative_to(out)).read_bytes() == shard.read_bytes(), shard


BAD_ROWS_PIPELINE = """
params: {data: ., policy: fail, letters: letters.jsonl}
steps:
  - read: {path: "${data}/paths.csv"}
  - name: load
    load_file: {column: path, base_dir: "${data}", output: bytes}
    on_error: ${policy}
    dead_letter: ${letters}
  - name: decode
    decode_image: {column: bytes, output: image, channels: 1}
    on_error: ${policy}
    dead_letter: ${letters}
  - to_example: {image: image, encoded: bytes, label: label, filename: path}
  - write: {path: "${data}/out", format: tfrecord, mode: overwrite}
"""


@pytest.fixture
def bad_images(tmp_path):
    """Three good PNGs, a missing file, skimage's truncated JPEG and a PNG with a broken CRC."""
    for i in range(3):
        Image.new("L", (8, 8), color=i * 40).save(tmp_path / f"good{i}.png")
    png = bytearray((tmp_path / "good0.png").read_bytes())
    png[40] ^= 0xFF  # inside the IHDR/IDAT data: the chunk CRC no longer matches
    (tmp_path / "bad_crc.png").write_bytes(bytes(png))
    shutil.copy(SKIMAGE_DATA / "truncated.jpg", tmp_path / "truncated.jpg")
    rows = ["good0.png", "missing.png", "good1.png", "truncated.jpg", "bad_crc.png", "good2.png"]
    (tmp_path / "paths.csv").write_text("path,label\n" + "".join(f"{p},{i}\n" for i, p in enumerate(rows)))
    (tmp_path / "p.yaml").write_text(BAD_ROWS_PIPELINE)
    return tmp_path


def test_bad_images_fail_the_job_naming_step_file_and_row(bad_images, recflow_bin):
    done = recflow(recflow_bin, "run", bad_images / "p.yaml", "--quiet", check=False)
    assert done.returncode == 1
    assert "step 'load'" in done.stderr and "paths.csv" in done.stderr and "record 1" in done.stderr, done.stderr
    assert "missing.png" in done.stderr
    assert not (bad_images / "out" / "_SUCCESS").exists()


def test_bad_images_are_skipped_or_dead_lettered(bad_images, recflow_bin, pb):
    recflow(recflow_bin, "run", bad_images / "p.yaml", "--set", "policy=skip", "--quiet")
    kept = [r for shard in (bad_images / "out").glob("*.tfrecord") for r in read_tfrecord(shard)]
    assert len(kept) == 3
    recflow(recflow_bin, "run", bad_images / "p.yaml", "--set", "policy=dead_letter", "--quiet")
    letters = [json.loads(line) for line in (bad_images / "letters.jsonl").read_text().splitlines()]
    assert [(l["step"], l["record"], l["row"]["path"]) for l in letters] == [
        ("load", 1, "missing.png"), ("decode", 3, "truncated.jpg"), ("decode", 4, "bad_crc.png")]
    assert all(l["file"].endswith("paths.csv") and l["error"] for l in letters)
    labels = []
    for shard in (bad_images / "out").glob("*.tfrecord"):
        for record in read_tfrecord(shard):
            example = pb.Example()
            example.ParseFromString(record)
            labels.append(example.features.feature["image/class/label"].int64_list.value[0])
    assert sorted(labels) == [0, 2, 5]


def test_the_cpp_api_example_runs_the_same_job(demo_output, recflow_bin, tmp_path, pb):
    """examples/image_pipeline.cc (the article's pipeline in the C++ API) on 300 of the images."""
    data, _, _ = demo_output
    lines = (data / "labels" / "part-00000-of-00001.csv").read_text().splitlines()
    subset = tmp_path / "labels.csv"
    subset.write_text("\n".join(lines[:301]) + "\n")
    example = recflow_bin.parent / "recflow-image-pipeline"
    done = subprocess.run([str(example), subset, data, tmp_path / "out"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "300 examples in 8 files" in done.stdout
    labels = []
    for shard in sorted((tmp_path / "out").glob("*.tfrecord.gz")):
        for record in read_tfrecord(shard):
            example = pb.Example()
            example.ParseFromString(record)
            assert Image.open(io.BytesIO(example.features.feature["image_png"].bytes_list.value[0])).size == (32, 32)
            labels.append(example.features.feature["label"].int64_list.value[0])
    assert labels == [int(line.split(",")[1]) for line in lines[1:301]]
