"""`recflow convert --to arrow|feather`: Arrow IPC datasets read back by Apache Arrow JS (the reference implementation)."""
import json
import subprocess
from pathlib import Path

import pytest

from test_convert import convert, data_files, write_rows

NODE_READER = Path(__file__).resolve().parents[2] / "tests" / "node" / "arrow_read.mjs"


def read_with_arrow_js(path: Path):
    """The schema, row count and columns Apache Arrow JS reads from one IPC stream or file."""
    result = subprocess.run(["node", str(NODE_READER), str(path)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def rows_of(dataset: Path):
    rows = []
    for f in data_files(dataset):
        table = read_with_arrow_js(f)
        names = [field["name"] for field in table["schema"]]
        rows += [dict(zip(names, values)) for values in zip(*(table["columns"][n] for n in names))]
    return rows


@pytest.mark.parametrize("to,compression", [("arrow", "none"), ("feather", "zstd"), ("arrow", "lz4")])
def test_sharded_arrow_output_holds_every_row_for_arrow_js(run, tmp_path, to, compression):
    src = tmp_path / "rows.csv"
    write_rows(src, 20000)
    out = tmp_path / "out"
    convert(run, src, "-o", out, "--to", to, "--shards", "3", "--compression", compression)
    files = data_files(out)
    suffix = ".feather" if to == "feather" else ".arrows"
    assert [f.name for f in files] == [f"part-0000{i}-of-00003{suffix}" for i in range(3)]
    rows = rows_of(out)
    assert sorted(int(r["id"]) for r in rows) == list(range(20000))
    by_id = {int(r["id"]): r for r in rows}
    assert by_id[12345] == {"id": "12345", "group": "0", "value": 12345 * 0.25, "text": "row 12345, with comma"}
    if compression != "none":  # the bodies really are compressed
        plain = tmp_path / "plain"
        convert(run, src, "-o", plain, "--to", to, "--shards", "3")
        assert sum(f.stat().st_size for f in files) < 0.8 * sum(f.stat().st_size for f in data_files(plain))


def test_partitioned_feather_drops_the_column_and_is_deterministic(run, tmp_path):
    src = tmp_path / "rows.csv"
    write_rows(src, 5000)
    outs = []
    for threads in ("1", "2"):
        out = tmp_path / f"out{threads}"
        convert(run, src, "-o", out, "--to", "feather", "--partition-by", "group", "--shards", "2",
                "--threads", threads, "--naming", "beam")
        outs.append(out)
    files = data_files(outs[0])
    assert len(files) == 10 and all(f.parent.name.startswith("group=") for f in files)
    for f in files:  # byte-identical whatever the thread count
        assert f.read_bytes() == (outs[1] / f.relative_to(outs[0])).read_bytes()
    rows = rows_of(outs[0])
    assert all("group" not in r for r in rows) and len(rows) == 5000
    assert sorted(int(r["id"]) for r in rows) == list(range(5000))


def test_arrow_output_refuses_whole_file_compression(run, tmp_path):
    src = tmp_path / "rows.csv"
    write_rows(src, 10)
    bad = run("convert", src, "-o", tmp_path / "a", "--to", "arrow", "--compression", "gzip", "--no-sync")
    assert bad.returncode != 0 and "compress their bodies" in bad.stderr
    bad = run("convert", src, "-o", tmp_path / "b", "--to", "tfrecord", "--compression", "zstd", "--no-sync")
    assert bad.returncode != 0 and "Arrow bodies" in bad.stderr


def test_arrow_round_trip_csv_to_feather_to_jsonl_equals_csv_to_jsonl(run, tmp_path):
    src = tmp_path / "rows.csv"
    write_rows(src, 3000)
    direct, via = tmp_path / "direct", tmp_path / "via"
    convert(run, src, "-o", direct, "--to", "jsonl")
    convert(run, src, "-o", tmp_path / "feather", "--to", "feather", "--shards", "2", "--compression", "lz4")
    convert(run, tmp_path / "feather", "-o", via, "--to", "jsonl")
    key = lambda r: r["id"]
    assert sorted(read_jsonl(direct), key=key) == sorted(read_jsonl(via), key=key)
    streams = tmp_path / "streams"
    convert(run, src, "-o", streams, "--to", "arrow", "--partition-by", "group")
    cat = run("cat", streams)
    assert cat.returncode == 0, cat.stderr
    rows = [json.loads(line) for line in cat.stdout.splitlines()]
    assert sorted(r["id"] for r in rows) == list(range(3000)) and {r["group"] for r in rows} == set(range(5))


def read_jsonl(root: Path):
    return [json.loads(line) for f in data_files(root) for line in f.read_text().splitlines()]


def test_golden_arrow_files_cat_without_a_known_suffix(run, testdata):
    golden = testdata / "arrow-integration" / "1.0.0-littleendian" / "generated_primitive.arrow_file"
    cat = run("cat", golden, "-n", "2")  # recognized by its ARROW1 magic
    assert cat.returncode == 0, cat.stderr
    assert len(cat.stdout.splitlines()) == 2
