"""Every command recognises its inputs by content: TFX and Beam shard names, standard input, legacy Arrow streams, and
formats recflow does not read named in a clear error."""
import json
import shutil
import subprocess

import pytest

from node_util import run_node

# TFX names its shards like this; Beam's default names have no suffix at all.
SHARD_NAMES = ["data_tfrecord-00000-of-00002.gz", "part-00000-of-00001"]
PENGUIN_TRAIN_RECORDS = 234


@pytest.fixture(params=SHARD_NAMES)
def shard(request, testdata, tmp_path):
    """penguin-train.tfrecord.gz (written by TensorFlow) under a name that says nothing of its format."""
    path = tmp_path / request.param
    shutil.copy(testdata / "tfrecord" / "tfx" / "penguin-train.tfrecord.gz", path)
    return path


def ok(result):
    assert result.returncode == 0, result.stderr
    return result


def test_cat_and_inspect_read_shards_by_content(run, shard):
    rows = ok(run("cat", shard)).stdout.splitlines()
    assert len(rows) == PENGUIN_TRAIN_RECORDS and "body_mass_g" in json.loads(rows[0])
    report = json.loads(ok(run("inspect", "--json", shard)).stdout)
    [file] = report["files"]
    assert file["records"] == PENGUIN_TRAIN_RECORDS
    assert (file["format"], file["content"], file["compression"], file["detected_by"]) == (
        "tfrecord", "TFRecord", "gzip", "content")
    table = ok(run("inspect", shard)).stdout
    assert "TFRecord" in table.splitlines()[1] and "gzip" in table.splitlines()[1]


def test_convert_reads_shards_by_content(run, shard, tmp_path):
    out = tmp_path / "out"
    ok(run("convert", shard, "-o", out, "--to", "jsonl", "--no-sync"))
    rows = [line for f in out.glob("*.jsonl") for line in f.read_text().splitlines()]
    assert len(rows) == PENGUIN_TRAIN_RECORDS


def test_run_reads_shards_by_content(run, shard, tmp_path):
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text(f"""
steps:
  - read: {{path: {shard}, max_record_bytes: 65536}}
  - write: {{path: {tmp_path / 'out'}, format: jsonl}}
""")
    ok(run("run", pipeline, "--quiet"))
    rows = [line for f in (tmp_path / "out").glob("*.jsonl") for line in f.read_text().splitlines()]
    assert len(rows) == PENGUIN_TRAIN_RECORDS


def test_serve_reads_shards_by_content_and_cat_reads_its_stream_from_stdin(recflow_bin, shard):
    served = subprocess.run([str(recflow_bin), "serve", shard, "--listen", "-"], capture_output=True, timeout=120)
    assert served.returncode == 0, served.stderr
    # The Arrow IPC stream on standard input is recognised too.
    rows = subprocess.run([str(recflow_bin), "cat", "-"], input=served.stdout, capture_output=True, timeout=120)
    assert rows.returncode == 0, rows.stderr
    assert len(rows.stdout.splitlines()) == PENGUIN_TRAIN_RECORDS


def test_standard_input_is_sniffed_for_every_format(run, recflow_bin, testdata, tmp_path):
    gz = (testdata / "tfrecord" / "tfx" / "penguin-eval.tfrecord.gz").read_bytes()
    cat = subprocess.run([recflow_bin, "cat", "-"], input=gz, capture_output=True, timeout=120)
    assert cat.returncode == 0, cat.stderr
    assert len(cat.stdout.splitlines()) == 100
    inspect = subprocess.run([recflow_bin, "inspect", "--json", "-"], input=gz, capture_output=True, timeout=120)
    assert inspect.returncode == 0, inspect.stderr
    [file] = json.loads(inspect.stdout)["files"]
    assert (file["path"], file["records"], file["compression"], file["format"]) == ("-", 100, "gzip", "tfrecord")
    csv = ok(run("cat", "-", stdin="a,b\n1,x\n2,y\n")).stdout.splitlines()
    assert [json.loads(line) for line in csv] == [{"a": 1, "b": "x"}, {"a": 2, "b": "y"}]
    jsonl = ok(run("cat", "-", stdin='{"a": [1]}\n')).stdout.splitlines()
    assert [json.loads(line) for line in jsonl] == [{"a": [1]}]
    out = tmp_path / "out"
    ok(run("convert", "-", "-o", out, "--to", "jsonl", "--no-sync", stdin="k,v\nx,1\n"))
    assert [json.loads(line) for f in out.glob("*.jsonl") for line in f.read_text().splitlines()] == [{"k": "x", "v": 1}]


def test_legacy_arrow_streams_are_recognised(run, tmp_path):
    legacy = tmp_path / "legacy"
    done = run_node("arrow_write_legacy.mjs", legacy, 5)
    assert done.returncode == 0, done.stderr
    assert legacy.read_bytes()[:4] != b"\xff\xff\xff\xff"  # no continuation marker: Arrow < 0.15 framing
    report = json.loads(ok(run("inspect", "--json", legacy)).stdout)
    [file] = report["files"]
    assert (file["format"], file["content"], file["arrow_stream"]) == (
        "arrow", "Arrow IPC stream (pre-0.15 format)", "pre-0.15")
    assert report["total"]["records"] == 5
    current = tmp_path / "current"
    ok(run("convert", legacy, "-o", current, "--to", "arrow", "--no-sync"))
    [shard] = current.glob("*.arrow*")
    [file] = json.loads(ok(run("inspect", "--json", shard)).stdout)["files"]
    assert file["arrow_stream"] == "0.15+"


FOREIGN = [
    # name, bytes, what the error must say
    ("table.parquet", b"PAR1\x15\x04\x15\x10" + bytes(64), "Parquet file (magic PAR1): recflow does not read it"),
    ("part-00000", b"PAR1\x15\x04\x15\x10" + bytes(64), "Parquet file (magic PAR1)"),
    ("model.h5", b"\x89HDF\r\n\x1a\n" + bytes(64), "HDF5 file"),
]


@pytest.mark.parametrize("command", ["cat", "inspect", "convert", "serve"])
def test_foreign_formats_are_named_by_every_command(run, testdata, tmp_path, command):
    tiff = testdata / "raster" / "sentinel2-l2a" / "B02.tif"
    bz2 = tmp_path / "records.tfrecord.bz2"
    bz2.write_bytes(subprocess.run(["bzip2", "-c"], input=b"a,b\n1,2\n" * 100, capture_output=True, check=True).stdout)
    zst = tmp_path / "records"
    zst.write_bytes(subprocess.run(["zstd", "-c"], input=b"a,b\n1,2\n" * 100, capture_output=True, check=True).stdout)
    cases = [(tiff, "TIFF/GeoTIFF image (magic II*\\0)"), (bz2, "bzip2-compressed input (magic BZh)"),
             (zst, "zstd-compressed input (magic 28 b5 2f fd)")]
    for name, data, said in FOREIGN:
        (tmp_path / name).write_bytes(data)
        cases.append((tmp_path / name, said))
    extra = {"convert": ["-o", tmp_path / "out", "--no-sync"], "serve": ["--listen", "-"]}.get(command, [])
    for path, said in cases:
        result = run(command, path, *extra)
        assert result.returncode == 1, (path, result.stderr)
        assert f"{path}: {said}" in result.stderr, result.stderr
        assert "CRC" not in result.stderr


def test_from_still_overrides_content(run, tmp_path):
    # A .csv name says CSV; --from says JSON Lines and wins.
    src = tmp_path / "rows.csv"
    src.write_text('{"a": 1}\n')
    assert json.loads(ok(run("cat", "--from", "jsonl", src)).stdout) == {"a": 1}
    blob = tmp_path / "blob"
    blob.write_bytes(b"\x01\x02\x03\x00\xfe\xff" * 4)
    unknown = run("cat", blob)
    assert unknown.returncode == 1 and "cannot tell the format" in unknown.stderr and "--from" in unknown.stderr
