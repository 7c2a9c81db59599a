"""Every command recognises its inputs by content: TFX and Beam shard names, standard input, legacy Arrow streams, and
formats recflow does not read named in a clear error."""
import gzip
import json
import os
import shutil
import subprocess

import pytest

from node_util import run_node
from pipe_util import fifo_fed

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
    # inspect describes a raster (test_raster.py); the other commands refuse it.
    cases = [] if command == "inspect" else [(tiff, "TIFF/GeoTIFF image (magic II*\\0)")]
    cases += [(bz2, "bzip2-compressed input (magic BZh)"), (zst, "zstd-compressed input (magic 28 b5 2f fd)")]
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


# Inputs that are not regular files: bash process substitution (/dev/fd/N), a FIFO fed by a thread, standard
# input. Each is read once, from its first byte, whatever its format.

ARROW = "arrow-integration/1.0.0-littleendian/generated_datetime"


def run_bash(script, timeout=120):
    """Runs a bash script (for <(...) process substitution); returns the CompletedProcess."""
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=timeout)


def test_arrow_streams_are_read_from_pipes_and_arrow_files_refused_clearly(run, recflow_bin, testdata, tmp_path):
    stream = testdata / (ARROW + ".stream")
    file = testdata / (ARROW + ".arrow_file")
    expected = ok(run("cat", stream)).stdout
    assert len(expected.splitlines()) > 0
    assert ok(run("cat", file)).stdout == expected
    # The sniffed head of a pipe is read again, not lost to a second look at the magic.
    assert ok(run_bash(f'"{recflow_bin}" cat <(cat "{stream}")')).stdout == expected
    with fifo_fed(tmp_path, stream.read_bytes()) as fifo:
        assert ok(run("cat", fifo)).stdout == expected
    piped = subprocess.run([recflow_bin, "cat", "-"], input=stream.read_bytes(), capture_output=True, timeout=120)
    assert piped.returncode == 0 and piped.stdout.decode() == expected, piped.stderr
    # An Arrow IPC file needs its footer: from a pipe it is refused naming the input, not misread as a stream.
    refused = subprocess.run([recflow_bin, "cat", "-"], input=file.read_bytes(), capture_output=True, timeout=120)
    assert refused.returncode != 0
    assert "<stdin>: an Arrow IPC file needs random access" in refused.stderr.decode(), refused.stderr
    with fifo_fed(tmp_path, file.read_bytes(), "file_fifo") as fifo:
        result = run("cat", fifo)
        assert result.returncode != 0 and f"{fifo}: an Arrow IPC file needs random access" in result.stderr


def test_cat_reads_tfrecord_pipes_once(run, recflow_bin, testdata, tmp_path):
    # Schema sampling used to read the pipe, then the records pass reopened it: nothing printed, exit 0.
    for name, records in [("penguin-eval.tfrecord.gz", 100), ("penguin-train.tfrecord.gz", PENGUIN_TRAIN_RECORDS)]:
        gz = testdata / "tfrecord" / "tfx" / name
        expected = ok(run("cat", gz)).stdout
        assert len(expected.splitlines()) == records
        assert ok(run_bash(f'"{recflow_bin}" cat <(zcat "{gz}")')).stdout == expected
        with fifo_fed(tmp_path, gzip.decompress(gz.read_bytes()), name + ".fifo") as fifo:
            assert ok(run("cat", fifo)).stdout == expected


def test_standard_input_among_several_inputs_loses_no_rows(run, recflow_bin, testdata, tmp_path):
    # The first input's source used to be opened twice (to relax its inferred schema): the second open of
    # standard input started after what the first had read, and its rows were silently lost.
    (tmp_path / "b.csv").write_text("a,b\n3,z\n4,w\n")
    out = tmp_path / "out"
    ok(run("convert", "-", tmp_path / "b.csv", "-o", out, "--to", "jsonl", "--no-sync", stdin="a,b\n1,x\n2,y\n"))
    rows = [json.loads(line) for f in sorted(out.glob("*.jsonl")) for line in f.read_text().splitlines()]
    assert rows == [{"a": 1, "b": "x"}, {"a": 2, "b": "y"}, {"a": 3, "b": "z"}, {"a": 4, "b": "w"}]
    (tmp_path / "b.jsonl").write_text('{"k": 3}\n')
    printed = ok(run("cat", "-", tmp_path / "b.jsonl", stdin='{"k": 1}\n{"k": 2}\n')).stdout.splitlines()
    assert [json.loads(line) for line in printed] == [{"k": 1}, {"k": 2}, {"k": 3}]
    # Several TFRecord inputs infer one schema from a sample of each, read again after: a pipe among them is
    # refused with the reason, never read short.
    gz = testdata / "tfrecord" / "tfx" / "penguin-eval.tfrecord.gz"
    mixed = run_bash(f'"{recflow_bin}" cat <(zcat "{gz}") "{gz}"')
    assert mixed.returncode != 0 and mixed.stdout == ""
    assert "is not a regular file" in mixed.stderr and "--schema" in mixed.stderr, mixed.stderr


def test_a_slow_pipe_is_judged_by_its_first_bytes_without_waiting_for_more(recflow_bin):
    # `zstd -c x | recflow cat -` with a writer that sends the head and then waits: the zstd magic decides, so the
    # error comes while the pipe is still open (detection used to wait for 64 KiB or the end of the input).
    proc = subprocess.Popen([str(recflow_bin), "cat", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdin.write(b"\x28\xb5\x2f\xfd\x04\x58\x31\x00\x00")
    proc.stdin.flush()
    try:
        returncode = proc.wait(timeout=60)  # a bound on a hang: the writer keeps the pipe open until recflow exits
    except subprocess.TimeoutExpired:
        returncode = None
    proc.stdin.close()
    if returncode is None:
        proc.wait(timeout=60)
    assert returncode == 1, "recflow cat - waited for more than the head it needed to decide"
    assert "zstd-compressed input" in proc.stderr.read().decode()
    proc.stdout.close()
    proc.stderr.close()


def test_a_damaged_tfrecord_that_starts_like_zlib_names_its_framing_fault(run, tmp_path):
    # 78 9c is a valid zlib header, but nothing inflates: the one detector says uncompressed, so the reader
    # reports the bad length CRC at offset 0 (a second detector taking two bytes for zlib said "corrupt zlib").
    damaged = tmp_path / "damaged.tfrecord"
    damaged.write_bytes(b"\x78\x9c" + bytes(range(40)))
    for command in ["cat", "inspect"]:
        result = run(command, damaged)
        assert result.returncode == 1, result.stderr
        assert "CRC" in result.stderr and "zlib" not in result.stderr, result.stderr
        assert "offset 0" in result.stderr, result.stderr
