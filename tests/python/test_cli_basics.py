"""The recflow command's contract: help, exit codes, error messages, pipes, --skip-corrupt."""
import json
import subprocess

from examples_util import example
from tfrecord_util import frame, write_tfrecord


def _rows(stdout):
    return [json.loads(line) for line in stdout.splitlines()]


def _records(pb, n, floats=1):
    return [example(pb, i=("int64", [k]), v=("float", [0.5] * floats)) for k in range(n)]


def test_help_on_every_command(run):
    for args in (["--help"], ["inspect", "--help"], ["cat", "--help"]):
        result = run(*args)
        assert result.returncode == 0, args
        assert "Usage" in result.stdout or "usage" in result.stdout.lower()


def test_usage_errors_exit_2(run, tmp_path, pb):
    path = write_tfrecord(tmp_path / "a.tfrecord", _records(pb, 1))
    assert run().returncode == 2  # no subcommand
    assert run("frobnicate").returncode == 2
    assert run("cat").returncode == 2  # PATH is required
    assert run("cat", "--limit", "many", path).returncode == 2
    assert run("cat", "--limit", "-1", path).returncode == 2
    assert run("cat", "--record-type", "nope", path).returncode == 2
    assert run("inspect", "--compression", "lzma", path).returncode == 2
    result = run("cat", "--no-such-flag", path)
    assert result.returncode == 2
    assert "no-such-flag" in result.stderr


def test_missing_file_exits_1(run, tmp_path):
    result = run("cat", tmp_path / "absent.tfrecord")
    assert result.returncode == 1
    assert result.stderr.startswith("recflow: ")
    assert "absent.tfrecord" in result.stderr


def test_corrupt_file_exits_1_naming_file_record_and_offset(run, tmp_path, pb):
    records = _records(pb, 3)
    data = bytearray(b"".join(frame(r) for r in records))
    second = len(frame(records[0]))
    data[second + 12] ^= 0xFF  # first data byte of record 1: its data CRC no longer matches
    path = tmp_path / "bad.tfrecord"
    path.write_bytes(bytes(data))
    for command in ("cat", "inspect"):
        result = run(command, path)
        assert result.returncode == 1, command
        assert str(path) in result.stderr
        assert "record 1" in result.stderr
        assert f"offset {second}" in result.stderr
    # Without CRC checks the flipped byte goes unnoticed or breaks the protobuf: never a crash.
    assert run("cat", "--no-verify", path).returncode in (0, 1)


def test_skip_corrupt_counts_and_continues(run, tmp_path, pb):
    records = _records(pb, 5)
    framed = [bytearray(frame(r)) for r in records]
    framed[2][-1] ^= 0xFF  # record 2's data CRC
    path = tmp_path / "damaged.tfrecord"
    path.write_bytes(b"".join(bytes(f) for f in framed))
    result = run("cat", "--skip-corrupt", path)
    assert result.returncode == 0, result.stderr
    assert _rows(result.stdout) == [{"i": k, "v": 0.5} for k in (0, 1, 3, 4)]
    assert "warning" in result.stderr and str(path) in result.stderr
    assert "1 corrupt record(s) skipped" in result.stderr
    inspect = run("inspect", "--json", "--skip-corrupt", path)
    assert inspect.returncode == 0, inspect.stderr
    assert '"corrupt_records":1' in inspect.stdout


def test_cat_into_closed_pipe_exits_0(recflow_bin, tmp_path, pb):
    # Far more output than a pipe buffer holds, so recflow meets EPIPE.
    path = write_tfrecord(tmp_path / "big.tfrecord.gz", _records(pb, 3000, floats=64), compress=True)
    result = subprocess.run(
        ["bash", "-o", "pipefail", "-c", f"'{recflow_bin}' cat '{path}' | head -1"],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert _rows(result.stdout) == [{"i": 0, "v": [0.5] * 64}]
    assert result.stderr == ""


def test_limit_stops_early(run, tmp_path, pb):
    path = write_tfrecord(tmp_path / "a.tfrecord", _records(pb, 10))
    result = run("cat", "--limit", "3", path)
    assert result.returncode == 0
    assert _rows(result.stdout) == [{"i": k, "v": 0.5} for k in range(3)]
    assert run("cat", "--limit", "0", path).stdout == ""


def test_directories_globs_and_stdin(run, recflow_bin, tmp_path, pb):
    (tmp_path / "d").mkdir()
    write_tfrecord(tmp_path / "d" / "part-0.tfrecord", _records(pb, 2))
    write_tfrecord(tmp_path / "d" / "part-1.tfrecord", _records(pb, 3))
    assert len(run("cat", tmp_path / "d").stdout.splitlines()) == 5
    assert len(run("cat", tmp_path / "d" / "part-*.tfrecord").stdout.splitlines()) == 5
    data = (tmp_path / "d" / "part-1.tfrecord").read_bytes()
    result = subprocess.run([str(recflow_bin), "cat", "-"], input=data, capture_output=True)
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == 3


def test_a_corrupt_record_far_into_a_file_is_named_by_its_own_number_in_every_command(run, tmp_path, pb):
    # Far more records than one unit holds, so the fault is read after earlier units were counted.
    records = _records(pb, 20000, floats=64)
    framed = [frame(r) for r in records]
    bad = 15000
    data = bytearray(b"".join(framed))
    offset = sum(len(f) for f in framed[:bad])
    data[offset + 12] ^= 0xFF  # record 15000's first data byte: its data CRC no longer matches
    path = tmp_path / "bad.tfrecord"
    path.write_bytes(bytes(data))
    for args in (("cat", path), ("convert", path, "-o", tmp_path / "out", "--to", "arrow")):
        result = run(*args)
        assert result.returncode == 1, args
        assert f"record {bad}" in result.stderr and f"offset {offset}" in result.stderr, (args, result.stderr)


def test_a_bad_row_in_the_second_file_of_a_directory_is_named_by_its_line_in_that_file(run, tmp_path):
    data = tmp_path / "in"
    data.mkdir()
    (data / "a.csv").write_text("k,v\n" + "".join(f"{i},{i}\n" for i in range(3000)))
    (data / "b.csv").write_text("k,v\n0,0\n1,1\n2,oops\n3,3\n")
    result = run("convert", data, "-o", tmp_path / "out", "--to", "jsonl")  # v is inferred int64 from a.csv
    assert result.returncode == 1, result.stderr
    assert "b.csv" in result.stderr and "record 2" in result.stderr, result.stderr
