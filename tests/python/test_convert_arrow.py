"""`recflow convert --to arrow|feather`: Arrow IPC datasets read back by Apache Arrow JS (the reference implementation)."""
import json
from pathlib import Path

import pytest

from node_util import run_node
from test_convert import convert, data_files, write_rows


def read_with_arrow_js(path: Path):
    """The schema, row count and columns Apache Arrow JS reads from one IPC stream or file."""
    result = run_node("arrow_read.mjs", path)
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


def write_dictionary_input(path: Path, kind: str, dictionary, start: int, rows: int):
    """An Arrow IPC input written by Arrow JS: `id` from `start`, `g` p/q, `d` over `dictionary`."""
    spec = {"dictionary": dictionary, "start": start, "g": ["pq"[i % 2] for i in range(rows)],
            "d": [None if i % 7 == 3 else (i * 5) % len(dictionary) for i in range(rows)]}
    result = run_node("arrow_write_dictionary.mjs", path, kind, json.dumps(spec))
    assert result.returncode == 0, result.stderr
    return {start + i: (spec["g"][i], None if d is None else dictionary[d]) for i, d in enumerate(spec["d"])}


@pytest.mark.parametrize("to", ["feather", "arrow"])
def test_dictionary_columns_stay_encoded_across_inputs_shards_and_partitions(run, tmp_path, to):
    # The second input's dictionary extends the first's (a delta); the third's reorders them and
    # adds a value (a replacement in a stream; unified into each file's dictionary in a file).
    expected = {}
    inputs = [("a.arrows", "stream", ["x", "y"]), ("b.feather", "file", ["x", "y", "z"]),
              ("c.feather", "file", ["w", "z", "x", "v"])]
    for n, (name, kind, dictionary) in enumerate(inputs):
        expected.update(write_dictionary_input(tmp_path / name, kind, dictionary, 1000 * n, 200))
    outs = []
    for threads in ("1", "2"):
        out = tmp_path / f"out{threads}"
        convert(run, *(tmp_path / name for name, _, _ in inputs), "-o", out, "--to", to, "--shards", "2",
                "--partition-by", "g", "--threads", threads)
        outs.append(out)
    files = data_files(outs[0])
    assert len(files) == 4
    for f in files:  # byte-identical whatever the thread count
        assert f.read_bytes() == (outs[1] / f.relative_to(outs[0])).read_bytes()
    rows = {}
    for f in files:
        table = read_with_arrow_js(f)
        assert [(c["name"], c["type"]) for c in table["schema"]] == [("id", "Int32"), ("d", "Dictionary<Int32, Utf8>")]
        g = f.parent.name.removeprefix("g=")
        rows.update({i: (g, d) for i, d in zip(table["columns"]["id"], table["columns"]["d"])})
    assert rows == expected
    cat = run("cat", outs[0])  # and recflow reads its own output back
    assert cat.returncode == 0, cat.stderr
    assert {r["id"]: (r["g"], r["d"]) for r in map(json.loads, cat.stdout.splitlines())} == expected


def test_golden_dictionary_file_converts_to_sharded_partitioned_feather(run, tmp_path, testdata):
    golden = testdata / "arrow-integration" / "1.0.0-littleendian" / "generated_dictionary"
    source = read_with_arrow_js(Path(f"{golden}.arrow_file"))
    want = sorted(json.dumps(row) for row in zip(*(source["columns"][n] for n in ("dict0", "dict1", "dict2"))))
    out = tmp_path / "out"
    convert(run, f"{golden}.arrow_file", "-o", out, "--to", "feather", "--shards", "3", "--partition-by", "dict1")
    got = []
    for f in data_files(out):
        table = read_with_arrow_js(f)
        assert [c["type"] for c in table["schema"]] == ["Dictionary<Int8, Utf8>", "Dictionary<Int16, Int64>"]
        part = f.parent.name.removeprefix("dict1=")
        dict1 = None if part == "__HIVE_DEFAULT_PARTITION__" else part
        got += [json.dumps([a, dict1, c]) for a, c in zip(table["columns"]["dict0"], table["columns"]["dict2"])]
    assert sorted(got) == want
