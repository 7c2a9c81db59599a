"""`recflow cat` and `recflow inspect --json` values against records built with libprotobuf."""
import csv
import json
import struct

from examples_util import example, sequence_example
from tfrecord_util import write_tfrecord


def _f32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", x))[0]


def _cat(run, *args):
    result = run("cat", *args)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_scalars_lists_missing_and_bytes(run, tmp_path, pb):
    records = [
        example(pb, i=("int64", [-3]), f=("float", [0.1]), s=("bytes", [b"caf\xc3\xa9"]),
                v=("int64", [1, 2, 3]), raw=("bytes", [b"\xff\x00"]), opt=("float", [1.5])),
        example(pb, i=("int64", [2**62]), f=("float", [-2.5]), s=("bytes", [b"x"]),
                v=("int64", []), raw=("bytes", [b"ok"])),
    ]
    lines = _cat(run, write_tfrecord(tmp_path / "a.tfrecord", records))
    # Keys follow the features' first appearance on the wire (protobuf map order), so compare objects.
    assert json.loads(lines[0]) == {"i": -3, "f": 0.1, "s": "caf\u00e9", "v": [1, 2, 3],
                                    "raw": {"$base64": "/wA="}, "opt": 1.5}
    assert '"f":0.1,' in lines[0] or '"f":0.1}' in lines[0]
    assert '"s":"caf\u00e9"' in lines[0]  # non-ASCII UTF-8 passes through unescaped
    assert json.loads(lines[1]) == {"i": 2**62, "f": -2.5, "s": "x", "v": [], "raw": "ok", "opt": None}


def test_float32_shortest_round_trip_and_non_finite(run, tmp_path, pb):
    values = [0.1, 1 / 3, 3.4028234663852886e38, 1e-45, 16777216.0, float("nan"), float("inf"), float("-inf")]
    records = [example(pb, x=("float", [v])) for v in values]
    lines = _cat(run, write_tfrecord(tmp_path / "f.tfrecord", records))
    printed = [json.loads(line)["x"] for line in lines]
    assert lines[0] == '{"x":0.1}'
    assert lines[1] == '{"x":0.33333334}'
    for value, text in zip(values[:5], printed[:5]):
        assert _f32(float(text)) == _f32(value)
    assert printed[5:] == ["NaN", "Infinity", "-Infinity"]


def test_sequence_example_layout(run, tmp_path, pb):
    records = [
        sequence_example(pb, {"id": ("int64", [7]), "w": ("float", [0.5, 0.25])},
                         {"tokens": [("bytes", [b"a", b"b"]), ("bytes", [])], "ids": [("int64", [1])]}),
        sequence_example(pb, {"id": ("int64", [8]), "w": ("float", [])}, {"tokens": [("bytes", [b"c"])]}),
    ]
    path = write_tfrecord(tmp_path / "s.tfrecord.gz", records, compress=True)
    lines = _cat(run, "--record-type", "sequence-example", path)
    assert [json.loads(line) for line in lines] == [
        {"context": {"id": 7, "w": [0.5, 0.25]}, "feature_lists": {"tokens": [["a", "b"], []], "ids": [[1]]}},
        {"context": {"id": 8, "w": []}, "feature_lists": {"tokens": [["c"]], "ids": None}},
    ]


def test_bytes_record_type(run, tmp_path, pb):
    path = write_tfrecord(tmp_path / "b.tfrecord", [b"hello", b"\x80\x81"])
    assert _cat(run, "--record-type", "bytes", path) == ['{"byteArray":"hello"}', '{"byteArray":{"$base64":"gIE="}}']


def test_schema_inferred_from_sample_across_files(run, tmp_path, pb):
    # The second file shows `v` as a list: the sample covers both files, so `v` is a list everywhere.
    write_tfrecord(tmp_path / "a.tfrecord", [example(pb, v=("int64", [1]))])
    write_tfrecord(tmp_path / "b.tfrecord", [example(pb, v=("int64", [2, 3]))])
    assert _cat(run, tmp_path / "a.tfrecord", tmp_path / "b.tfrecord") == ['{"v":[1]}', '{"v":[2,3]}']


def test_inspect_json(run, tmp_path, pb):
    records = [example(pb, a=("int64", [1]), b=("float", [1.0, 2.0])), example(pb, a=("int64", [2]))]
    path = write_tfrecord(tmp_path / "x.tfrecord.gz", records, compress=True)
    result = run("inspect", "--json", path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["record_type"] == "example"
    [file] = report["files"]
    assert file["path"] == str(path)
    assert file["records"] == 2 and file["compression"] == "gzip"
    assert file["file_bytes"] == path.stat().st_size
    assert file["decoded_bytes"] == sum(len(r) + 16 for r in records)
    assert report["total"]["records"] == 2
    assert sorted(report["schema"], key=lambda f: f["name"]) == [
        {"name": "a", "type": "int64", "nullable": False, "kind": "feature"},
        {"name": "b", "type": "list<float32>", "nullable": True, "kind": "feature"},
    ]
    features = {f["name"]: f for f in report["features"]}
    assert features["a"]["present"] == 2 and features["a"]["missing"] == 0
    assert features["b"]["present"] == 1 and features["b"]["missing"] == 1
    assert (features["b"]["min_length"], features["b"]["max_length"]) == (2, 2)
    human = run("inspect", path)
    assert human.returncode == 0 and "list<float32>" in human.stdout and "gzip" in human.stdout


def test_penguins_equal_csv(run, testdata):
    # TFX split the CSV rows between train and eval by hash, so compare the rows as multisets.
    tfx = testdata / "tfrecord" / "tfx"
    names = ("species", "culmen_length_mm", "culmen_depth_mm", "flipper_length_mm", "body_mass_g")
    lines = _cat(run, tfx / "penguin-train.tfrecord.gz", tfx / "penguin-eval.tfrecord.gz")
    rows = [json.loads(line) for line in lines]
    assert all(set(row) == set(names) for row in rows)
    got = sorted(tuple([row["species"]] + [_f32(row[n]) for n in names[1:]]) for row in rows)
    with open(testdata / "csv" / "penguins_processed.csv", newline="") as f:
        want = sorted(tuple([int(r["species"])] + [_f32(float(r[n])) for n in names[1:]]) for r in csv.DictReader(f))
    assert len(got) == len(want) == 334
    assert got == want


def test_inspect_penguins(run, testdata):
    path = testdata / "tfrecord" / "tfx" / "penguin-train.tfrecord.gz"
    report = json.loads(run("inspect", "--json", path).stdout)
    assert report["total"]["records"] == 234
    types = {f["name"]: f["type"] for f in report["schema"]}
    assert types == {"species": "int64", "culmen_length_mm": "float32", "culmen_depth_mm": "float32",
                     "flipper_length_mm": "float32", "body_mass_g": "float32"}
    assert all(f["present"] == 234 and f["missing"] == 0 for f in report["features"])


def test_sample_then_infer_all(run, tmp_path, pb):
    # 10 000 scalar records fill the default sample; the record after it holds a list.
    records = [example(pb, v=("int64", [k])) for k in range(10000)] + [example(pb, v=("int64", [1, 2]))]
    path = write_tfrecord(tmp_path / "late.tfrecord", records)
    result = run("cat", path)
    assert result.returncode == 1
    assert "record 10000" in result.stderr and "--infer-all" in result.stderr
    assert run("cat", "--limit", "5", path).returncode == 0  # the record past the limit is never decoded
    lines = _cat(run, "--infer-all", path)
    assert lines[0] == '{"v":[0]}' and lines[-1] == '{"v":[1,2]}'
