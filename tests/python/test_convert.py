"""`recflow convert`: CSV/JSONL/TFRecord in, sharded partitioned datasets out, checked with protobuf."""
import gzip
import json
import os
import re
import zlib
from collections import Counter
from pathlib import Path

import pytest

from tfrecord_util import read_tfrecord


def features_of(pb, record: bytes):
    """An Example as {name: (kind, values)}, floats as float32 values (as stored)."""
    ex = pb.Example()
    ex.ParseFromString(record)
    out = {}
    for name, feature in ex.features.feature.items():
        kind = feature.WhichOneof("kind")
        out[name] = (kind, tuple(getattr(feature, kind).value) if kind else ())
    return out


def freeze(features):
    return tuple(sorted(features.items()))


def data_files(root: Path):
    return sorted(p for p in root.rglob("*") if p.is_file() and not any(
        part.startswith(("_", ".")) for part in p.relative_to(root).parts))


def convert(run, *args):
    result = run("convert", *args, "--no-sync")
    assert result.returncode == 0, result.stderr
    return result


def test_penguins_csv_equals_the_records_tensorflow_wrote(run, pb, testdata, tmp_path):
    out = tmp_path / "penguins"
    convert(run, testdata / "csv" / "penguins_processed.csv", "-o", out, "--compression", "gzip")
    files = data_files(out)
    assert [f.name for f in files] == ["part-00000-of-00001.tfrecord.gz"]
    assert (out / "_SUCCESS").exists()
    ours = Counter(freeze(features_of(pb, r)) for r in read_tfrecord(files[0]))
    theirs = Counter()
    for name in ("penguin-train.tfrecord.gz", "penguin-eval.tfrecord.gz"):
        theirs.update(freeze(features_of(pb, r)) for r in read_tfrecord(testdata / "tfrecord" / "tfx" / name))
    assert sum(ours.values()) == 334
    assert ours == theirs


MIXED_CSV = (
    'id,name,score,count,note\n'
    '1,alice,0.5,10,"hello, world"\n'
    '2,"bob ""the"" builder",1.25,,"multi\nline"\n'
    '3,,-2.0,7,\n'
    '4,dave,,-9223372036854775808,plain\n'
)


def read_jsonl_dir(root: Path):
    lines = []
    for f in data_files(root):
        data = f.read_bytes()
        if f.name.endswith(".gz"):
            data = gzip.decompress(data)
        lines += [json.loads(line) for line in data.decode().splitlines()]
    return lines


def test_csv_to_tfrecord_to_jsonl_equals_csv_to_jsonl(run, tmp_path):
    src = tmp_path / "mixed.csv"
    src.write_text(MIXED_CSV)
    convert(run, src, "-o", tmp_path / "direct", "--to", "jsonl")
    convert(run, src, "-o", tmp_path / "tfr")
    convert(run, tmp_path / "tfr", "-o", tmp_path / "via", "--to", "jsonl")
    direct = read_jsonl_dir(tmp_path / "direct")
    via = read_jsonl_dir(tmp_path / "via")
    assert len(direct) == 4
    assert direct[1]["name"] == 'bob "the" builder' and direct[1]["note"] == "multi\nline"
    assert direct[3]["count"] == -9223372036854775808
    assert via == direct


def write_rows(path: Path, n: int):
    with path.open("w") as f:
        f.write("id,group,value,text\n")
        for i in range(n):
            f.write(f'{i},{i % 5},{i * 0.25},"row {i}, with comma"\n')


def single_member(data: bytes, compression: str = "gzip") -> bytes:
    """The bytes of exactly one gzip member (or zlib stream), read by Python's zlib module."""
    d = zlib.decompressobj(31 if compression == "gzip" else 15)
    raw = d.decompress(data) + d.flush()
    assert d.eof and d.unused_data == b"", f"not exactly one {compression} member"
    return raw


# Every level band and its library (docs/compression.md): 0 stored (zlib), 1 and 2 ISA-L (the
# default, -1, is 2), 3..9 zlib.
@pytest.mark.parametrize("compression,level", [("gzip", None), ("gzip", 0), ("gzip", 1), ("gzip", 6), ("gzip", 9),
                                               ("zlib", 2), ("zlib", 5)])
def test_shards_are_balanced_single_member_gzip_and_identical_for_any_thread_count(run, pb, tmp_path, compression,
                                                                                   level):
    src = tmp_path / "rows.csv"
    write_rows(src, 30000)
    outs = []
    for threads in (1, 2):
        out = tmp_path / f"t{threads}"
        level_args = [] if level is None else ["--level", level]
        convert(run, src, "-o", out, "--shards", "4", "--compression", compression, "--block-size", "65536",
                "--threads", threads, *level_args)
        outs.append(out)
    files = [data_files(o) for o in outs]
    suffix = ".gz" if compression == "gzip" else ".zz"
    assert [f.name for f in files[0]] == [f"part-0000{i}-of-00004.tfrecord{suffix}" for i in range(4)]
    assert [f.read_bytes() for f in files[0]] == [f.read_bytes() for f in files[1]]
    ids, sizes = [], []
    for f in files[0]:
        raw = single_member(f.read_bytes(), compression)
        if compression == "gzip":
            assert gzip.decompress(f.read_bytes()) == raw
        records = read_tfrecord(f)
        sizes.append(len(records))
        ids += [features_of(pb, r)["id"][1][0] for r in records]
    assert sorted(ids) == list(range(30000))
    assert max(sizes) - min(sizes) <= 40, sizes


def test_max_records_per_shard_names_the_final_count(run, tmp_path):
    src = tmp_path / "rows.csv"
    write_rows(src, 10)
    out = tmp_path / "out"
    convert(run, src, "-o", out, "--max-records-per-shard", "3", "--to", "jsonl")
    assert [f.name for f in data_files(out)] == [f"part-0000{i}-of-00004.jsonl" for i in range(4)]
    assert [len(f.read_text().splitlines()) for f in data_files(out)] == [3, 3, 3, 1]


HOSTILE = ["../x", "a/b", "=", "%", "..", ".", "x\x01y", "üñí", "__HIVE_DEFAULT_PARTITION__x", "", "%~", "%+",
           "\x00", "v" * 300, "/" * 300, "日" * 120]


def test_hostile_partition_values_round_trip_inside_the_output(run, tmp_path):
    src = tmp_path / "hostile.jsonl"
    rows = [{"k": v, "n": i} for i, v in enumerate(HOSTILE)] + [{"k": None, "n": 100}, {"k": "a\x00b", "n": 101}]
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "out"
    convert(run, src, "-o", out, "--partition-by", "k", "--to", "jsonl")
    root = os.path.realpath(out)
    for dirpath, dirnames, filenames in os.walk(out):
        for name in dirnames + filenames:
            assert os.path.realpath(os.path.join(dirpath, name)).startswith(root + os.sep)
    for f in data_files(out):
        assert "k" not in json.loads(f.read_text().splitlines()[0])  # partition columns leave the records
    back = tmp_path / "back"
    convert(run, out, "-o", back, "--to", "jsonl")
    got = {r["n"]: r["k"] for r in read_jsonl_dir(back)}
    assert got == {r["n"]: r["k"] for r in rows}


def test_too_long_partition_path_is_refused_and_nothing_is_committed(run, tmp_path):
    src = tmp_path / "long.jsonl"
    src.write_text(json.dumps({"k": "v", "n": 0}) + "\n" + json.dumps({"k": "/" * 1000, "n": 1}) + "\n")
    out = tmp_path / "out"
    result = run("convert", src, "-o", out, "--partition-by", "k", "--no-sync")
    assert result.returncode == 1, "a value is a data error, not a usage error"
    assert "2048-byte limit" in result.stderr and "record 1" in result.stderr, result.stderr
    assert f"{src}" in result.stderr and "'k'" in result.stderr and "%2F%2F%2F" in result.stderr, result.stderr
    assert not out.exists() and os.listdir(tmp_path) == ["long.jsonl"], "the failed job left something"


def test_a_partition_column_name_too_long_for_a_directory_is_a_usage_error_before_any_row(run, tmp_path):
    src = tmp_path / "header_only.csv"
    src.write_text("k" * 250 + ",v\n")
    result = run("convert", src, "-o", tmp_path / "out", "--partition-by", "k" * 250, "--no-sync")
    assert result.returncode == 2 and "too long" in result.stderr, result.stderr


def test_inputs_whose_partition_columns_disagree_are_data_errors(run, tmp_path):
    for name, key in (("a", "p"), ("b", "q")):
        (tmp_path / name / f"{key}=1").mkdir(parents=True)
        (tmp_path / name / f"{key}=1" / "part-0.jsonl").write_text('{"v": 1}\n')
    (tmp_path / "flat.jsonl").write_text('{"v": 2}\n')
    for inputs, message in (((tmp_path / "a", tmp_path / "b"), "has partition columns"),
                            ((tmp_path / "a", tmp_path / "flat.jsonl"), "cannot be mixed")):
        result = run("convert", *inputs, "-o", tmp_path / "out", "--to", "jsonl", "--no-sync")
        assert result.returncode == 1 and message in result.stderr, result.stderr


def test_save_modes(run, tmp_path):
    a = tmp_path / "a.jsonl"
    a.write_text('{"p": 1, "v": "a1"}\n{"p": 2, "v": "a2"}\n')
    b = tmp_path / "b.jsonl"
    b.write_text('{"p": 2, "v": "b2"}\n{"p": 3, "v": "b3"}\n')
    out = tmp_path / "out"
    convert(run, a, "-o", out, "--partition-by", "p", "--to", "jsonl")
    refused = run("convert", b, "-o", out, "--partition-by", "p", "--to", "jsonl", "--no-sync")
    assert refused.returncode == 1 and "already holds a dataset" in refused.stderr
    convert(run, b, "-o", out, "--partition-by", "p", "--to", "jsonl", "--mode", "overwrite-partitions")
    assert sorted(r["v"] for r in read_jsonl_dir(out)) == ["a1", "b2", "b3"]
    convert(run, b, "-o", out, "--partition-by", "p", "--to", "jsonl", "--mode", "append", "--naming", "spark")
    assert sorted(r["v"] for r in read_jsonl_dir(out)) == ["a1", "b2", "b2", "b3", "b3"]
    convert(run, a, "-o", out, "--partition-by", "p", "--to", "jsonl", "--mode", "overwrite")
    assert sorted(r["v"] for r in read_jsonl_dir(out)) == ["a1", "a2"]


def test_beam_named_appends_never_take_the_names_of_shards_already_there(run, tmp_path):
    src = tmp_path / "rows.jsonl"
    src.write_text('{"p": 1, "v": "x"}\n{"p": 2, "v": "y"}\n')
    out = tmp_path / "out"
    convert(run, src, "-o", out, "--partition-by", "p", "--to", "jsonl", "--shards", "2")
    for _ in range(2):
        convert(run, src, "-o", out, "--partition-by", "p", "--to", "jsonl", "--shards", "2", "--mode", "append")
    assert sorted(r["v"] for r in read_jsonl_dir(out)) == ["x", "x", "x", "y", "y", "y"]
    names = sorted(f.name for f in data_files(out) if f.parent.name == "p=1")
    assert names[:2] == ["part-00000-of-00002.jsonl", "part-00001-of-00002.jsonl"]
    tags = {n.split("-")[1] for n in names[2:]}
    assert len(names) == 6 and len(tags) == 2, names
    assert all(re.fullmatch(r"part-[0-9a-f]{8}-0000[01]-of-00002\.jsonl", n) for n in names[2:]), names


def test_partition_values_read_back_as_written_through_the_schema_file(run, tmp_path):
    src = tmp_path / "zips.jsonl"
    src.write_text('{"zip": "007", "n": 1}\n{"zip": "7", "n": 2}\n{"zip": "+7", "n": 3}\n')
    out = tmp_path / "out"
    convert(run, src, "-o", out, "--partition-by", "zip", "--to", "jsonl")
    schema = json.loads((out / "_recflow_schema.json").read_text())
    assert schema == {"recflow_dataset_schema": 1, "partition_by": ["zip"],
                      "fields": [{"name": "zip", "type": "utf8", "nullable": False},
                                 {"name": "n", "type": "int64", "nullable": False}]}
    back = tmp_path / "back"
    convert(run, out, "-o", back, "--to", "jsonl")
    assert sorted((r["n"], r["zip"]) for r in read_jsonl_dir(back)) == [(1, "007"), (2, "7"), (3, "+7")]
    (out / "_recflow_schema.json").unlink()  # a dataset without one: Spark's inference
    convert(run, out, "-o", tmp_path / "inferred", "--to", "jsonl")
    assert sorted((r["n"], r["zip"]) for r in read_jsonl_dir(tmp_path / "inferred")) == [(1, 7), (2, 7), (3, 7)]


def test_rows_that_do_not_match_the_dataset_are_refused_before_anything_is_written(run, tmp_path):
    first = tmp_path / "first.jsonl"
    first.write_text('{"zip": "007", "n": 1}\n')
    out = tmp_path / "out"
    convert(run, first, "-o", out, "--partition-by", "zip", "--to", "jsonl")
    before = sorted(p.name for p in out.rglob("*"))
    other = tmp_path / "other.jsonl"
    other.write_text('{"zip": 7, "n": 2}\n')
    for mode in ("append", "overwrite-partitions"):
        result = run("convert", other, "-o", out, "--partition-by", "zip", "--to", "jsonl", "--mode", mode, "--no-sync")
        assert result.returncode == 1, result.stderr
        assert "its column 0 is 'zip' of type utf8, the rows' is 'zip' of type int64" in result.stderr, result.stderr
        assert sorted(p.name for p in out.rglob("*")) == before
        assert sorted(os.listdir(tmp_path)) == ["first.jsonl", "other.jsonl", "out"]


def test_bad_rows_fail_by_default_with_file_and_line_and_leave_no_output(run, tmp_path):
    src = tmp_path / "bad.csv"
    src.write_text("a,b\n1,2\n3,4,5\n6,7\n")
    out = tmp_path / "out"
    result = run("convert", src, "-o", out, "--no-sync")
    assert result.returncode == 1
    assert str(src) in result.stderr and "line 3" in result.stderr and "record 1" in result.stderr
    assert not out.exists(), "a failed convert left an output directory that was not there"


def test_csv_files_read_as_one_dataset_must_share_the_header(run, tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.csv").write_text("id,name\n1,x\n")
    (tmp_path / "in" / "b.csv").write_text("id,name\n2,y\n")
    out = tmp_path / "out"
    convert(run, tmp_path / "in", "-o", out, "--to", "jsonl")
    assert sorted(r["id"] for r in read_jsonl_dir(out)) == [1, 2]
    (tmp_path / "in" / "c.csv").write_text("name,id\nz,3\n")  # same columns, other order
    result = run("convert", tmp_path / "in", "-o", tmp_path / "out2", "--to", "jsonl", "--no-sync")
    assert result.returncode == 1
    assert "c.csv" in result.stderr and "column 1 is 'name', expected 'id'" in result.stderr, result.stderr


def test_bad_rows_to_a_file(run, tmp_path):
    src = tmp_path / "bad.csv"
    src.write_text("a,b\n1,2\n3,4,5\n6,x\n8,9\n")
    out = tmp_path / "out"
    bad = tmp_path / "bad.jsonl"
    result = convert(run, src, "-o", out, "--to", "jsonl", "--bad-rows", f"file:{bad}", "--json",
                     "--schema", write_schema(tmp_path, [("a", "int64"), ("b", "int64")]))
    summary = json.loads(result.stdout)
    assert summary["records"] == 2 and summary["skipped"] == 2
    assert read_jsonl_dir(out) == [{"a": 1, "b": 2}, {"a": 8, "b": 9}]
    bad_rows = [json.loads(line) for line in bad.read_text().splitlines()]
    assert [(r["record"], r["row"]) for r in bad_rows] == [(1, "3,4,5"), (2, "6,x")]
    assert all(r["step"] == "read" and r["file"] == str(src) and r["offset"] > 0 and r["error"] for r in bad_rows)


def write_schema(tmp_path: Path, fields):
    path = tmp_path / "schema.json"
    path.write_text(json.dumps({"fields": [{"name": n, "type": t} for n, t in fields]}))
    return path


def test_select_and_summary(run, tmp_path):
    src = tmp_path / "rows.csv"
    write_rows(src, 100)
    out = tmp_path / "out"
    result = convert(run, src, "-o", out, "--select", "text,id", "--to", "jsonl", "--json")
    rows = read_jsonl_dir(out)
    assert list(rows[0]) == ["text", "id"] and len(rows) == 100
    summary = json.loads(result.stdout)
    assert summary["records"] == 100 and summary["files"] == 1 and summary["output"] == str(out)
    assert "100 records into 1 files" in result.stderr


def test_tfrecord_dataset_with_hive_directories_reads_partition_columns_back(run, pb, tmp_path):
    src = tmp_path / "rows.csv"
    write_rows(src, 50)
    out = tmp_path / "out"
    convert(run, src, "-o", out, "--partition-by", "group", "--shards", "2", "--compression", "zlib")
    names = sorted(str(f.relative_to(out)) for f in data_files(out))
    assert names == [f"group={g}/part-0000{s}-of-00002.tfrecord.zz" for g in range(5) for s in range(2)]
    for f in data_files(out):
        for r in read_tfrecord(f):
            assert "group" not in features_of(pb, r)
    back = tmp_path / "back"
    convert(run, out, "-o", back, "--to", "jsonl")
    rows = read_jsonl_dir(back)
    assert sorted((r["id"], r["group"]) for r in rows) == [(i, i % 5) for i in range(50)]


AVRO_DIR = Path(__file__).resolve().parents[2] / "src" / "recflow" / "formats" / "avro" / "testdata"


def test_avro_to_jsonl_equals_python_avro(run, tmp_path):
    avro_datafile = pytest.importorskip("avro.datafile")
    avro_io = pytest.importorskip("avro.io")
    src = AVRO_DIR / "events_deflate.avro"
    with src.open("rb") as f:
        expected = list(avro_datafile.DataFileReader(f, avro_io.DatumReader()))
    out = tmp_path / "out"
    convert(run, src, "-o", out, "--to", "jsonl", "--select", "id,name,kind,tags,ok", "--shards", "2")
    got = sorted(read_jsonl_dir(out), key=lambda r: r["id"])
    want = sorted(({"id": r["id"], "name": r["name"], "kind": r["kind"], "tags": r["tags"], "ok": r["ok"]}
                   for r in expected), key=lambda r: r["id"])
    assert got == want and len(got) == 300


def test_avro_to_tfrecord_partitioned_by_enum(run, pb, tmp_path):
    src = AVRO_DIR / "events_null.avro"
    out = tmp_path / "out"
    convert(run, src, "-o", out, "--select", "id,kind,tags", "--partition-by", "kind")
    dirs = sorted(p.name for p in out.iterdir() if p.is_dir())
    assert dirs == ["kind=A", "kind=B", "kind=C"]
    total = sum(len(read_tfrecord(f)) for f in data_files(out))
    assert total == 300


def convert_zero_rows(run, tmp_path, *args):
    """Converts an empty JSONL file, typed n: int64 and p: utf8 (not null) by --schema, into `out`."""
    src = tmp_path / "empty.jsonl"
    src.write_text("")
    schema = tmp_path / "schema.json"
    schema.write_text('{"fields": [{"name": "n", "type": "int64", "nullable": false},'
                      ' {"name": "p", "type": "utf8", "nullable": false}]}')
    out = tmp_path / "out"
    convert(run, src, "-o", out, "--schema", schema, "--to", "jsonl", *args)
    return out


def inspected_columns(run, path):
    """(name, type...) of each column `recflow inspect` shows for `path`."""
    inspect = run("inspect", path)
    assert inspect.returncode == 0, inspect.stderr
    assert "0 records" in inspect.stdout
    return [line.split()[:3] for line in inspect.stdout.split("schema:")[1].splitlines()[2:] if line.strip()]


def test_a_partitioned_dataset_of_zero_rows_reads_as_zero_rows_with_its_recorded_columns(run, tmp_path):
    out = convert_zero_rows(run, tmp_path, "--partition-by", "p")
    assert data_files(out) == []  # no partition directory at all: only _SUCCESS and the schema file
    recorded = json.loads((out / "_recflow_schema.json").read_text())
    cat = run("cat", out)
    assert cat.returncode == 0 and cat.stdout == "", cat.stderr
    assert inspected_columns(run, out) == [["n", "int64", "not"], ["p", "utf8", "not"]]
    back = tmp_path / "back"
    convert(run, out, "-o", back, "--partition-by", "p", "--to", "jsonl")
    assert data_files(back) == []
    assert json.loads((back / "_recflow_schema.json").read_text()) == recorded
    nothing = tmp_path / "nothing"
    nothing.mkdir()
    for command in ("cat", "inspect"):
        result = run(command, nothing)
        assert result.returncode == 1, result.stderr
        assert "holds no data file and no schema file" in result.stderr, result.stderr


def test_an_unpartitioned_dataset_of_zero_rows_reads_with_its_recorded_columns(run, tmp_path):
    out = convert_zero_rows(run, tmp_path)
    assert [p.stat().st_size for p in data_files(out)] == [0]  # one empty shard
    assert inspected_columns(run, out) == [["n", "int64", "not"], ["p", "utf8", "not"]]
    back = tmp_path / "back"
    convert(run, out, "-o", back, "--to", "jsonl")
    assert json.loads((back / "_recflow_schema.json").read_text()) == json.loads((out / "_recflow_schema.json").read_text())
